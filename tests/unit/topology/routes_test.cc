#include "topology/routes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

#include "topology/fat_tree.h"

namespace fe::topo {
namespace {

Graph MustBuild(int k) {
  StatusOr<Graph> g = BuildFatTree({.k = k});
  EXPECT_TRUE(g.ok()) << g.status().message();
  return std::move(g).value();
}

// Where two hosts sit relative to each other, from the fat-tree's host numbering alone.
enum class Locality { kSameEdge, kSamePod, kOtherPod };
Locality Where(int k, uint32_t a, uint32_t b) {
  if (a / (k / 2) == b / (k / 2)) return Locality::kSameEdge;
  if (a / (k * k / 4) == b / (k * k / 4)) return Locality::kSamePod;
  return Locality::kOtherPod;
}

// Up/down paths of a fat-tree: up to the lowest common tier and down again.
int ExpectedHops(Locality where) {
  switch (where) {
    case Locality::kSameEdge:
      return 2;
    case Locality::kSamePod:
      return 4;
    case Locality::kOtherPod:
      return 6;
  }
  return -1;
}
uint64_t ExpectedPaths(int k, Locality where) {
  switch (where) {
    case Locality::kSameEdge:
      return 1;
    case Locality::kSamePod:
      return k / 2;  // any aggregation switch of the pod
    case Locality::kOtherPod:
      return (k / 2) * (k / 2);  // any aggregation, then any of its cores
  }
  return 0;
}

// Link hops from every node to `dst`, by a breadth-first search written apart from the one in
// RouteTable: it walks the link list, not per-node adjacency. Fat-tree hosts are leaves, so
// allowing transit through hosts changes no distance.
std::vector<int> DistancesTo(const Graph& g, NodeId dst) {
  std::vector<std::vector<NodeId>> nbr(g.nodes().size());
  for (const Link& l : g.links()) {
    nbr[l.a.node].push_back(l.b.node);
    nbr[l.b.node].push_back(l.a.node);
  }
  std::vector<int> dist(g.nodes().size(), -1);
  std::deque<NodeId> todo{dst};
  dist[dst] = 0;
  while (!todo.empty()) {
    const NodeId n = todo.front();
    todo.pop_front();
    for (NodeId m : nbr[n]) {
      if (dist[m] < 0) {
        dist[m] = dist[n] + 1;
        todo.push_back(m);
      }
    }
  }
  return dist;
}

class RoutesTest : public ::testing::TestWithParam<int> {};

TEST_P(RoutesTest, NextHopsAreExactlyThePortsThatGetCloser) {
  const int k = GetParam();
  const Graph g = MustBuild(k);
  const RouteTable routes = RouteTable::Build(g);
  for (uint32_t dst = 0; dst < g.num_hosts(); ++dst) {
    const std::vector<int> dist = DistancesTo(g, g.hosts()[dst]);
    for (NodeId sw = 0; sw < g.nodes().size(); ++sw) {
      if (g.node(sw).kind != NodeKind::kSwitch) continue;
      std::vector<uint16_t> closer;
      for (uint16_t p = 0; p < g.node(sw).links.size(); ++p) {
        if (dist[g.Peer({sw, p}).node] == dist[sw] - 1) closer.push_back(p);
      }
      const std::span<const uint16_t> hops = routes.NextHops(sw, dst);
      ASSERT_FALSE(hops.empty()) << g.node(sw).name << " -> h" << dst;
      for (uint16_t p : hops) {
        EXPECT_LT(dist[g.Peer({sw, p}).node], dist[sw]) << g.node(sw).name << " port " << p;
      }
      EXPECT_EQ(std::vector<uint16_t>(hops.begin(), hops.end()), closer)
          << g.node(sw).name << " -> h" << dst;
    }
  }
}

TEST_P(RoutesTest, PathCountsMatchTheFatTreeFormula) {
  const int k = GetParam();
  const Graph g = MustBuild(k);
  const RouteTable routes = RouteTable::Build(g);
  for (uint32_t src = 0; src < g.num_hosts(); ++src) {
    EXPECT_EQ(CountShortestPaths(g, routes, src, src), 1u);
    for (uint32_t dst = 0; dst < g.num_hosts(); ++dst) {
      if (src == dst) continue;
      ASSERT_EQ(CountShortestPaths(g, routes, src, dst), ExpectedPaths(k, Where(k, src, dst)))
          << "h" << src << " -> h" << dst;
    }
  }
}

// Enumerates every path the next hops allow, one by one: a second count beside the dynamic
// programme of CountShortestPaths, and a check that no path is longer or shorter than up/down.
TEST_P(RoutesTest, EveryRoutedPathIsUpDownAndArrives) {
  const int k = GetParam();
  const Graph g = MustBuild(k);
  const RouteTable routes = RouteTable::Build(g);
  for (uint32_t src = 0; src < g.num_hosts(); ++src) {
    for (uint32_t dst = 0; dst < g.num_hosts(); ++dst) {
      if (src == dst) continue;
      const NodeId dst_node = g.hosts()[dst];
      const int want_hops = ExpectedHops(Where(k, src, dst));
      uint64_t paths = 0;
      // Depth-first over next hops; `hops` counts links crossed so far.
      std::function<void(NodeId, int)> walk = [&](NodeId n, int hops) {
        if (n == dst_node) {
          EXPECT_EQ(hops, want_hops) << "h" << src << " -> h" << dst;
          ++paths;
          return;
        }
        ASSERT_EQ(g.node(n).kind, NodeKind::kSwitch) << "path enters a host that is not dst";
        ASSERT_LT(hops, want_hops) << "path too long h" << src << " -> h" << dst;
        for (uint16_t p : routes.NextHops(n, dst)) walk(g.Peer({n, p}).node, hops + 1);
      };
      walk(g.Peer({g.hosts()[src], 0}).node, 1);
      ASSERT_EQ(paths, ExpectedPaths(k, Where(k, src, dst))) << "h" << src << " -> h" << dst;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(K, RoutesTest, ::testing::Values(2, 4, 8));

// The groups a k = 4 fat-tree must hold, read off its documented port order (ports 0-1 down,
// 2-3 up; a core switch's port p leads to pod p).
TEST(RoutesTest, GroupsFollowThePortOrderAtKFour) {
  const Graph g = MustBuild(4);
  const RouteTable routes = RouteTable::Build(g);
  auto node = [&](const std::string& name) {
    for (NodeId id = 0; id < g.nodes().size(); ++id) {
      if (g.node(id).name == name) return id;
    }
    ADD_FAILURE() << "no node " << name;
    return NodeId{0};
  };
  using Ports = std::vector<uint16_t>;
  auto hops = [&](const std::string& sw, uint32_t dst) {
    const std::span<const uint16_t> s = routes.NextHops(node(sw), dst);
    return Ports(s.begin(), s.end());
  };
  // edge0 serves h0, h1 (pod 0); edge1 serves h2, h3 (pod 0).
  EXPECT_EQ(hops("edge0", 0), Ports({0}));
  EXPECT_EQ(hops("edge0", 1), Ports({1}));
  EXPECT_EQ(hops("edge0", 2), Ports({2, 3}));
  EXPECT_EQ(hops("edge0", 15), Ports({2, 3}));
  EXPECT_EQ(hops("agg1", 3), Ports({1}));     // down to edge1
  EXPECT_EQ(hops("agg1", 4), Ports({2, 3}));  // h4 is in pod 1: up
  EXPECT_EQ(hops("core3", 13), Ports({3}));   // h13 is in pod 13 / 4 = 3
  EXPECT_EQ(hops("agg6", 13), Ports({0}));    // agg6 is in pod 3; h13 on edge6 = its edge 0
  EXPECT_EQ(hops("agg6", 15), Ports({1}));    // h15 on edge7 = its edge 1
}

TEST(RoutesTest, HostsDoNotForwardAndUnreachableMeansEmpty) {
  // s0 - h1 - s1 - h2, plus h0 on s0 and an isolated switch s2 with h3.
  Graph g;
  const Rate r = Rate::FromGbps(100);
  const Time d = Time::FromNs(1);
  const NodeId h0 = g.AddNode(NodeKind::kHost, 0, -1, "h0");
  const NodeId h1 = g.AddNode(NodeKind::kHost, 0, -1, "h1");
  const NodeId h2 = g.AddNode(NodeKind::kHost, 0, -1, "h2");
  const NodeId h3 = g.AddNode(NodeKind::kHost, 0, -1, "h3");
  const NodeId s0 = g.AddNode(NodeKind::kSwitch, 1, -1, "s0");
  const NodeId s1 = g.AddNode(NodeKind::kSwitch, 1, -1, "s1");
  const NodeId s2 = g.AddNode(NodeKind::kSwitch, 1, -1, "s2");
  g.Connect(s0, h0, r, d);
  g.Connect(s0, h1, r, d);
  g.Connect(h1, s1, r, d);
  g.Connect(s1, h2, r, d);
  g.Connect(s2, h3, r, d);
  const RouteTable routes = RouteTable::Build(g);
  EXPECT_EQ(std::vector<uint16_t>(routes.NextHops(s0, 1).begin(), routes.NextHops(s0, 1).end()),
            std::vector<uint16_t>({1}));
  EXPECT_TRUE(routes.NextHops(s0, 2).empty());  // only through host h1
  EXPECT_TRUE(routes.NextHops(s2, 0).empty());
  EXPECT_EQ(CountShortestPaths(g, routes, 0, 1), 1u);
  EXPECT_EQ(CountShortestPaths(g, routes, 0, 2), 0u);
  EXPECT_EQ(CountShortestPaths(g, routes, 3, 0), 0u);
  // h1 is multi-homed and reaches h2 only through s1.
  EXPECT_EQ(CountShortestPaths(g, routes, 1, 2), 1u);
}

// With hosts numbered by pod and edge, a fat-tree switch's destinations fall into at most k + 1
// runs that share a group (an edge switch: one run per down-port and the up-ports before and
// after them; an aggregation switch: one per edge below and two; a core switch: one per pod),
// and it has at most k/2 + 1 distinct groups of at most k/2 ports. The table must stay within
// that, not grow with switches x hosts (2 bytes a pair would be 655 KB at k = 16).
TEST(RoutesTest, MemoryIsTheRunsOfDestinationsNotSwitchesTimesHosts) {
  for (const int k : {8, 16, 32}) {
    const Graph g = MustBuild(k);
    const RouteTable routes = RouteTable::Build(g);
    const double per_switch = (k + 1) * 8.0                   // runs: first host, group
                              + 4.0                           // first run
                              + (k / 2 + 1) * 4.0             // group starts
                              + (k / 2 + 1) * (k / 2) * 2.0;  // ports
    const double bound = 256.0 + 4.0 * g.nodes().size() + per_switch * g.num_switches();
    EXPECT_LE(routes.MemoryBytes(), bound) << "k = " << k;
  }
}

}  // namespace
}  // namespace fe::topo

namespace fe::topo {
namespace {

// ForEachGroup walks the switch's runs: it must visit exactly the distinct port sets a look-up
// per destination finds, each once, in the order of the first destination taking it.
TEST(RoutesTest, ForEachGroupVisitsEachLookedUpGroupOnceInDestinationOrder) {
  const Graph g = MustBuild(8);
  const RouteTable r = RouteTable::Build(g);
  size_t switches = 0;
  for (NodeId n = 0; n < g.nodes().size(); ++n) {
    if (g.node(n).kind == NodeKind::kHost) continue;
    ++switches;
    std::vector<std::span<const uint16_t>> looked_up;
    for (uint32_t dst = 0; dst < g.num_hosts(); ++dst) {
      const std::span<const uint16_t> hops = r.NextHops(n, dst);
      const bool seen = std::any_of(looked_up.begin(), looked_up.end(), [&](auto s) {
        return s.data() == hops.data() && s.size() == hops.size();
      });
      if (!seen) looked_up.push_back(hops);
    }
    std::vector<std::span<const uint16_t>> walked;
    r.Of(n).ForEachGroup([&](std::span<const uint16_t> ports) { walked.push_back(ports); });
    ASSERT_EQ(walked.size(), looked_up.size()) << g.node(n).name;
    for (size_t i = 0; i < walked.size(); ++i) {
      EXPECT_EQ(walked[i].data(), looked_up[i].data()) << g.node(n).name << " group " << i;
      EXPECT_EQ(walked[i].size(), looked_up[i].size()) << g.node(n).name << " group " << i;
    }
  }
  EXPECT_EQ(switches, g.num_switches());
}

TEST(ShortestPathLinksTest, FatTreeDistancesFollowTheTiers) {
  // In a fat-tree a path climbs to the lowest common tier and back: 2 links under one edge
  // switch, 4 within a pod, 6 across pods.
  const Graph g = BuildFatTree(FatTreeParams{4, Rate::FromGbps(100), Time::FromNs(1000)}).value();
  const RouteTable r = RouteTable::Build(g);
  EXPECT_EQ(ShortestPathLinks(g, r, 0, 0), 0u);
  EXPECT_EQ(ShortestPathLinks(g, r, 0, 1), 2u);
  EXPECT_EQ(ShortestPathLinks(g, r, 0, 2), 4u);
  EXPECT_EQ(ShortestPathLinks(g, r, 0, 15), 6u);
}

}  // namespace
}  // namespace fe::topo
