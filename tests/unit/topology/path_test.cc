#include "topology/path.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/random.h"
#include "topology/fat_tree.h"
#include "topology/routes.h"

namespace fe::topo {
namespace {

// The links join end to end from the source's node to the destination's.
void ExpectChain(const Graph& g, const std::vector<LinkId>& links, uint32_t src, uint32_t dst) {
  ASSERT_FALSE(links.empty());
  NodeId at = g.hosts()[src];
  for (const LinkId l : links) {
    const Link& link = g.link(l);
    ASSERT_TRUE(link.a.node == at || link.b.node == at) << "link " << l << " does not touch " << at;
    at = link.a.node == at ? link.b.node : link.a.node;
  }
  EXPECT_EQ(at, g.hosts()[dst]);
}

// A fat-tree path climbs to the lowest tier the two hosts share and back: 2 links under one
// edge switch, 4 within a pod, 6 across pods.
TEST(PathLinksTest, FatTreeLengthsFollowLocality) {
  for (const int k : {2, 4, 8}) {
    const Graph g = BuildFatTree({.k = k}).value();
    const RouteTable routes = RouteTable::Build(g);
    const uint32_t per_edge = k / 2, per_pod = k * k / 4;
    for (uint32_t src = 0; src < g.num_hosts(); ++src) {
      EXPECT_TRUE(PathLinks(g, routes, src, src).empty());
      for (uint32_t dst = 0; dst < g.num_hosts(); ++dst) {
        if (src == dst) continue;
        const size_t want = src / per_edge == dst / per_edge ? 2
                            : src / per_pod == dst / per_pod ? 4
                                                             : 6;
        const std::vector<LinkId> links = PathLinks(g, routes, src, dst);
        ASSERT_EQ(links.size(), want) << "k " << k << " h" << src << " -> h" << dst;
        ExpectChain(g, links, src, dst);
        EXPECT_EQ(ShortestPathLinks(g, routes, src, dst), want);
      }
    }
  }
}

TEST(PathLinksTest, FirstNextHopIsTaken) {
  // k = 4: edge0's next hops to h15 are ports 2 and 3 (aggregation 0 and 1); the first is taken,
  // and so on up: h0 -> edge0 -> agg0 -> core0 -> agg6 -> edge7 -> h15.
  const Graph g = BuildFatTree({.k = 4}).value();
  const RouteTable routes = RouteTable::Build(g);
  std::vector<NodeId> nodes{g.hosts()[0]};
  for (const LinkId l : PathLinks(g, routes, 0, 15)) {
    const Link& link = g.link(l);
    nodes.push_back(link.a.node == nodes.back() ? link.b.node : link.a.node);
  }
  std::vector<std::string> names;
  for (const NodeId n : nodes) names.push_back(g.node(n).name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"h0", "edge0", "agg0", "core0", "agg6", "edge7", "h15"}));
}

TEST(PathLinksTest, DeadLinkMakesItUnreachable) {
  const Graph g = BuildFatTree({.k = 4}).value();
  std::vector<uint8_t> up(g.links().size(), 1);
  up[g.node(g.hosts()[5]).links[0]] = 0;  // h5's only link
  const RouteTable routes = RouteTable::Build(g, up);
  EXPECT_TRUE(PathLinks(g, routes, 0, 5).empty());
  EXPECT_TRUE(PathLinks(g, routes, 4, 5).empty());  // even from its edge neighbour
  EXPECT_EQ(ShortestPathLinks(g, routes, 0, 5), UINT32_MAX);
  EXPECT_EQ(PathLinks(g, routes, 0, 15).size(), 6u);  // others are unaffected

  // With every uplink of edge0 down, h0 reaches only h1.
  std::vector<uint8_t> cut(g.links().size(), 1);
  const Node& edge0 = g.node(*g.FindNode("edge0"));
  for (uint16_t p = 2; p < edge0.links.size(); ++p) cut[edge0.links[p]] = 0;
  const RouteTable cut_routes = RouteTable::Build(g, cut);
  EXPECT_EQ(PathLinks(g, cut_routes, 0, 1).size(), 2u);
  for (uint32_t dst = 2; dst < g.num_hosts(); ++dst) {
    EXPECT_TRUE(PathLinks(g, cut_routes, 0, dst).empty()) << dst;
  }
}

// Two hosts of one scale-up domain talk over a scale-up switch (2 links), the port chosen by the
// spread; hosts of different domains go through their NICs and the leaves.
TEST(PathLinksTest, ScaleUpDomainUsesItsSwitches) {
  Graph g;
  const Rate r = Rate::FromGbps(400);
  const Time d = Time::FromNs(100);
  std::vector<NodeId> h;
  for (int i = 0; i < 4; ++i)
    h.push_back(g.AddNode(NodeKind::kHost, 0, -1, "h" + std::to_string(i)));
  const NodeId leaf0 = g.AddNode(NodeKind::kSwitch, 1, -1, "leaf0");
  const NodeId leaf1 = g.AddNode(NodeKind::kSwitch, 1, -1, "leaf1");
  const NodeId spine = g.AddNode(NodeKind::kSwitch, 2, -1, "spine0");
  const NodeId su[2] = {g.AddNode(NodeKind::kSwitch, 0, -1, "su0"),
                        g.AddNode(NodeKind::kSwitch, 0, -1, "su1")};
  for (int i = 0; i < 4; ++i) g.Connect(h[i], i < 2 ? leaf0 : leaf1, r, d);
  // Domain 0 = {h0, h2}, joined by su0 and su1; h1 and h3 are in no domain.
  for (const int i : {0, 2}) {
    for (const NodeId s : su) g.Connect(h[i], s, r, d);
  }
  g.Connect(leaf0, spine, r, d);
  g.Connect(leaf1, spine, r, d);
  // The graph records domains for its builders only; this test sets them as one would.
  Graph& graph = g;
  const_cast<Node&>(graph.node(h[0])).domain = 0;
  const_cast<Node&>(graph.node(h[2])).domain = 0;
  const RouteTable routes = RouteTable::Build(graph);
  for (const uint32_t spread : {0u, 1u}) {
    const std::vector<LinkId> links = PathLinks(graph, routes, 0, 2, spread);
    ASSERT_EQ(links.size(), 2u);
    EXPECT_EQ(links[0], graph.node(h[0]).links[1 + spread]);
    ExpectChain(graph, links, 0, 2);
  }
  EXPECT_EQ(PathLinks(graph, routes, 0, 3).size(), 4u);  // NIC, leaf0, spine, leaf1
  EXPECT_EQ(PathLinks(graph, routes, 0, 1).size(), 2u);  // NIC, leaf0
}

// A table built for another wiring sends the walk round in circles: no path, and no hang.
TEST(PathLinksTest, LoopingTableGivesNoPath) {
  const Rate r = Rate::FromGbps(100);
  const Time d = Time::FromNs(10);
  auto nodes = [](Graph& g) {
    g.AddNode(NodeKind::kHost, 0, -1, "h0");
    g.AddNode(NodeKind::kHost, 0, -1, "h1");
    g.AddNode(NodeKind::kSwitch, 1, -1, "s0");
    g.AddNode(NodeKind::kSwitch, 1, -1, "s1");
    g.AddNode(NodeKind::kSwitch, 1, -1, "s2");
  };
  // Routed on: s0 port 1 leads to s2 (next to h1), s1 port 0 back to s0.
  Graph routed;
  nodes(routed);
  routed.Connect(0, 2, r, d);
  routed.Connect(2, 4, r, d);
  routed.Connect(3, 2, r, d);
  routed.Connect(4, 1, r, d);
  // Walked on: s0 port 1 leads to s1, whose port 0 leads back to s0.
  Graph walked;
  nodes(walked);
  walked.Connect(0, 2, r, d);
  walked.Connect(2, 3, r, d);
  walked.Connect(4, 1, r, d);
  const RouteTable routes = RouteTable::Build(routed);
  ASSERT_EQ(routes.NextHops(2, 1).size(), 1u);
  ASSERT_EQ(routes.NextHops(2, 1)[0], 1);
  ASSERT_EQ(routes.NextHops(3, 1)[0], 0);
  EXPECT_TRUE(PathLinks(walked, routes, 0, 1).empty());
}

// Per-hop telemetry needs one entry per switch crossed: a fat-tree's longest path crosses edge,
// aggregation, core, aggregation, edge (5) at every k; a leaf-spine crosses 3; a single switch 1.
TEST(MaxSwitchHopsTest, ClosedForms) {
  for (const int k : {2, 4, 8}) {
    EXPECT_EQ(RouteTable::Build(BuildFatTree({.k = k}).value()).max_switch_hops(), 5u) << k;
  }
  Graph leaf_spine;
  const Rate r = Rate::FromGbps(100);
  const Time d = Time::FromNs(10);
  std::vector<NodeId> leaves;
  for (int i = 0; i < 3; ++i)
    leaves.push_back(leaf_spine.AddNode(NodeKind::kSwitch, 1, -1, "leaf" + std::to_string(i)));
  for (int s = 0; s < 2; ++s) {
    const NodeId spine = leaf_spine.AddNode(NodeKind::kSwitch, 2, -1, "spine" + std::to_string(s));
    for (const NodeId l : leaves) leaf_spine.Connect(l, spine, r, d);
  }
  for (int i = 0; i < 6; ++i) {
    leaf_spine.Connect(leaf_spine.AddNode(NodeKind::kHost, 0, -1, "h" + std::to_string(i)),
                       leaves[i % 3], r, d);
  }
  EXPECT_EQ(RouteTable::Build(leaf_spine).max_switch_hops(), 3u);

  Graph star;
  const NodeId hub = star.AddNode(NodeKind::kSwitch, 1, -1, "s0");
  for (int i = 0; i < 4; ++i)
    star.Connect(star.AddNode(NodeKind::kHost, 0, -1, "h" + std::to_string(i)), hub, r, d);
  EXPECT_EQ(RouteTable::Build(star).max_switch_hops(), 1u);
}

// On any graph no walked path crosses more switches than the bound, and on graphs where every
// host has one link some path reaches it.
TEST(MaxSwitchHopsTest, BoundsEveryWalkedPath) {
  Random rng(11);
  for (int trial = 0; trial < 5; ++trial) {
    Graph g;
    const Rate r = Rate::FromGbps(100);
    const Time d = Time::FromNs(10);
    std::vector<NodeId> sw;
    for (int i = 0; i < 15; ++i) {
      sw.push_back(g.AddNode(NodeKind::kSwitch, 1, -1, "s" + std::to_string(i)));
      if (i > 0) g.Connect(sw[i], sw[rng.NextBelow(i)], r, d);
    }
    for (int i = 0; i < 20; ++i) {
      g.Connect(g.AddNode(NodeKind::kHost, 0, -1, "h" + std::to_string(i)), sw[rng.NextBelow(15)],
                r, d);
    }
    const RouteTable routes = RouteTable::Build(g);
    size_t longest = 0;
    for (uint32_t a = 0; a < g.num_hosts(); ++a) {
      for (uint32_t b = 0; b < g.num_hosts(); ++b) {
        if (a != b) longest = std::max(longest, PathLinks(g, routes, a, b).size() - 1);
      }
    }
    EXPECT_EQ(routes.max_switch_hops(), longest) << "trial " << trial;
  }
}

}  // namespace
}  // namespace fe::topo
