#include "topology/fat_tree.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>

namespace fe::topo {
namespace {

Graph MustBuild(int k) {
  StatusOr<Graph> g = BuildFatTree({.k = k});
  EXPECT_TRUE(g.ok()) << g.status().message();
  return std::move(g).value();
}

class FatTreeTest : public ::testing::TestWithParam<int> {};

// Counts from the definition (Al-Fares et al. 2008), each term computed on its own.
TEST_P(FatTreeTest, CountsMatchTheDefinition) {
  const int k = GetParam();
  const Graph g = MustBuild(k);
  const size_t hosts = k * (k / 2) * (k / 2);  // k pods, k/2 edges, k/2 hosts each
  const size_t edges = k * (k / 2), aggs = k * (k / 2);
  const size_t cores = (k / 2) * (k / 2);
  EXPECT_EQ(g.num_hosts(), hosts);
  EXPECT_EQ(hosts, static_cast<size_t>(k * k * k / 4));
  EXPECT_EQ(g.num_switches(), edges + aggs + cores);
  EXPECT_EQ(g.num_switches(), static_cast<size_t>(5 * k * k / 4));
  const size_t host_links = hosts;
  const size_t edge_agg_links = k * (k / 2) * (k / 2);  // full bipartite graph inside each pod
  const size_t agg_core_links = cores * k;              // each core reaches every pod once
  EXPECT_EQ(g.links().size(), host_links + edge_agg_links + agg_core_links);

  size_t per_tier[4] = {0, 0, 0, 0};
  for (const Node& n : g.nodes()) ++per_tier[n.tier];
  EXPECT_EQ(per_tier[0], hosts);
  EXPECT_EQ(per_tier[1], edges);
  EXPECT_EQ(per_tier[2], aggs);
  EXPECT_EQ(per_tier[3], cores);
}

TEST_P(FatTreeTest, EverySwitchHasKPortsAndEveryHostOne) {
  const int k = GetParam();
  const Graph g = MustBuild(k);
  for (const Node& n : g.nodes()) {
    EXPECT_EQ(n.links.size(), n.kind == NodeKind::kHost ? 1u : static_cast<size_t>(k)) << n.name;
  }
}

TEST_P(FatTreeTest, PortsFaceDownFirstThenUp) {
  const int k = GetParam();
  const Graph g = MustBuild(k);
  for (NodeId id = 0; id < g.nodes().size(); ++id) {
    const Node& n = g.node(id);
    if (n.kind == NodeKind::kHost) continue;
    const int down_ports = n.tier == 3 ? k : k / 2;
    for (uint16_t p = 0; p < n.links.size(); ++p) {
      const Node& peer = g.node(g.Peer({id, p}).node);
      const int want_tier = p < down_ports ? n.tier - 1 : n.tier + 1;
      EXPECT_EQ(peer.tier, want_tier) << n.name << " port " << p;
      if (n.tier == 3) {
        EXPECT_EQ(peer.pod, p) << n.name << " port " << p;
      }
    }
  }
}

TEST_P(FatTreeTest, ConsecutiveHostsShareAnEdgeSwitch) {
  const int k = GetParam();
  const Graph g = MustBuild(k);
  for (uint32_t i = 0; i < g.num_hosts(); ++i) {
    const NodeId h = g.hosts()[i];
    EXPECT_EQ(g.HostIndex(h), static_cast<int32_t>(i));
    EXPECT_EQ(g.node(h).name, "h" + std::to_string(i));
    EXPECT_EQ(g.node(h).pod, static_cast<int32_t>(i / (k * k / 4)));
    const PortRef edge = g.Peer({h, 0});
    EXPECT_EQ(g.node(edge.node).name, "edge" + std::to_string(i / (k / 2)));
    EXPECT_EQ(g.node(edge.node).pod, g.node(h).pod);
    EXPECT_EQ(edge.port, i % (k / 2));
  }
}

// The wiring of a fat-tree, not only its degrees: inside a pod every edge switch meets every
// aggregation switch once, and every core switch meets each pod once through the aggregation
// switch whose in-pod index is core / (k/2).
TEST_P(FatTreeTest, WiringIsAFatTree) {
  const int k = GetParam();
  const int half = k / 2;
  const Graph g = MustBuild(k);
  std::set<std::pair<NodeId, NodeId>> pairs;
  for (const Link& l : g.links()) {
    EXPECT_TRUE(pairs.insert(std::minmax(l.a.node, l.b.node)).second) << "parallel link";
  }
  auto find = [&](const std::string& name) {
    for (NodeId id = 0; id < g.nodes().size(); ++id) {
      if (g.node(id).name == name) return id;
    }
    ADD_FAILURE() << "no node " << name;
    return NodeId{0};
  };
  for (int p = 0; p < k; ++p) {
    for (int e = 0; e < half; ++e) {
      for (int a = 0; a < half; ++a) {
        const NodeId edge = find("edge" + std::to_string(p * half + e));
        const NodeId agg = find("agg" + std::to_string(p * half + a));
        EXPECT_TRUE(pairs.count(std::minmax(edge, agg))) << p << " " << e << " " << a;
      }
    }
  }
  for (int c = 0; c < half * half; ++c) {
    const NodeId core = find("core" + std::to_string(c));
    for (int p = 0; p < k; ++p) {
      const NodeId agg = find("agg" + std::to_string(p * half + c / half));
      EXPECT_TRUE(pairs.count(std::minmax(core, agg))) << "core" << c << " pod " << p;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(K, FatTreeTest, ::testing::Values(2, 4, 8));

TEST(FatTreeParamsTest, LinksCarryTheRequestedRateAndDelay) {
  StatusOr<Graph> g =
      BuildFatTree({.k = 4, .link_rate = Rate::FromGbps(400), .link_delay = Time::FromNs(250)});
  ASSERT_TRUE(g.ok());
  for (const Link& l : g->links()) {
    EXPECT_EQ(l.rate, Rate::FromGbps(400));
    EXPECT_EQ(l.delay, Time::FromNs(250));
  }
}

TEST(FatTreeParamsTest, RefusesKThatDescribesNoFatTree) {
  for (int k : {-4, 0, 1, 3, 7, kMaxFatTreeK + 2}) {
    StatusOr<Graph> g = BuildFatTree({.k = k});
    ASSERT_FALSE(g.ok()) << "k=" << k;
    EXPECT_NE(g.status().message().find("fat_tree.k: must be an even number"), std::string::npos);
    EXPECT_NE(g.status().message().find("got " + std::to_string(k)), std::string::npos);
  }
}

TEST(FatTreeParamsTest, RefusesNonPositiveRateAndNegativeDelay) {
  EXPECT_FALSE(BuildFatTree({.k = 4, .link_rate = Rate::FromBps(0)}).ok());
  EXPECT_FALSE(BuildFatTree({.k = 4, .link_rate = Rate::FromGbps(-1)}).ok());
  EXPECT_FALSE(BuildFatTree({.k = 4, .link_delay = Time::FromNs(-1)}).ok());
  EXPECT_TRUE(BuildFatTree({.k = 4, .link_delay = Time::Zero()}).ok());
}

}  // namespace
}  // namespace fe::topo
