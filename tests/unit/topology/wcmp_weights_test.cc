#include "topology/wcmp_weights.h"

#include <gtest/gtest.h>

#include <vector>

#include "topology/graph.h"
#include "topology/routes.h"

namespace fe::topo {
namespace {

std::vector<uint32_t> Of(std::span<const uint32_t> s) { return {s.begin(), s.end()}; }

// h0 - leaf0 = {spine0, spine1} = leaf1 - h1: leaf0 has one 400 Gb/s link to each spine, each
// spine four 100 Gb/s links to leaf1.
struct TwoSpines {
  Graph g;
  NodeId leaf0, leaf1, spine0, spine1;
  std::vector<LinkId> spine1_down;

  TwoSpines() {
    const Rate host = Rate::FromGbps(100);
    const Rate fat = Rate::FromGbps(400);
    const Rate thin = Rate::FromGbps(100);
    const Time d = Time::FromNs(100);
    const NodeId h0 = g.AddNode(NodeKind::kHost, 0, -1, "h0");
    const NodeId h1 = g.AddNode(NodeKind::kHost, 0, -1, "h1");
    leaf0 = g.AddNode(NodeKind::kSwitch, 1, -1, "leaf0");
    leaf1 = g.AddNode(NodeKind::kSwitch, 1, -1, "leaf1");
    spine0 = g.AddNode(NodeKind::kSwitch, 2, -1, "spine0");
    spine1 = g.AddNode(NodeKind::kSwitch, 2, -1, "spine1");
    g.Connect(leaf0, h0, host, d);
    g.Connect(leaf1, h1, host, d);
    g.Connect(leaf0, spine0, fat, d);
    g.Connect(leaf0, spine1, fat, d);
    for (int i = 0; i < 4; ++i) g.Connect(spine0, leaf1, thin, d);
    for (int i = 0; i < 4; ++i) spine1_down.push_back(g.Connect(spine1, leaf1, thin, d));
  }
};

TEST(WcmpWeightsTest, EqualCapacityBehindEachMemberGivesEqualWeights) {
  TwoSpines t;
  const RouteTable routes = RouteTable::Build(t.g);
  const WcmpWeights w = WcmpWeights::Build(t.g, routes, t.leaf0);
  // Towards h1: min(400, 4 x 100) for each spine, in Mb/s, cumulative.
  EXPECT_EQ(Of(w.CumulativeOf(1)), (std::vector<uint32_t>{400000, 800000}));
  // Towards h0 leaf0 has a single port: nothing to weigh.
  EXPECT_TRUE(w.CumulativeOf(0).empty());
}

TEST(WcmpWeightsTest, FailedLinksBehindAMemberLowerItsWeight) {
  TwoSpines t;
  std::vector<uint8_t> up(t.g.links().size(), 1);
  up[t.spine1_down[0]] = 0;
  up[t.spine1_down[1]] = 0;
  const RouteTable routes = RouteTable::Build(t.g, up);
  const WcmpWeights w = WcmpWeights::Build(t.g, routes, t.leaf0);
  // spine1 keeps two 100 Gb/s links: 200 against spine0's 400.
  EXPECT_EQ(Of(w.CumulativeOf(1)), (std::vector<uint32_t>{400000, 600000}));
  // Back towards h0, leaf1's group is its six live links, each leading on to 400 Gb/s.
  const WcmpWeights back = WcmpWeights::Build(t.g, routes, t.leaf1);
  const std::vector<uint32_t> c = Of(back.CumulativeOf(0));
  ASSERT_EQ(c.size(), 6u);
  EXPECT_EQ(c.back(), 600000u);  // every member min(100, 400)
}

}  // namespace
}  // namespace fe::topo
