#include <gtest/gtest.h>

#include <string>

#include "build_test_util.h"
#include "topology/metrics.h"

namespace fe::topo {
namespace {

constexpr char kClasses[] = R"(
  link_class { name: "host" rate_gbps: 100 }
  link_class { name: "up" rate_gbps: 100 }
)";

std::string TwoTier(int leaves, int down, int up, int spines) {
  return std::string(kClasses) +
         "clos { host_link_class: \"host\" tier { switches: " + std::to_string(leaves) +
         " down_links: " + std::to_string(down) + " up_links: " + std::to_string(up) +
         " uplink_class: \"up\" } tier { switches: " + std::to_string(spines) +
         " down_links: " + std::to_string(leaves * up / spines) + " } }";
}

// 2:1 leaves: L leaves of D hosts and U up-links. Closed forms: H = L x D hosts, oversubscription
// D/U at the leaves, bisection min(H/2 x r, L/2 x U x r) for leaves split evenly by the halves.
TEST(ClosTest, TwoTierCountsOversubscriptionAndBisectionFollowTheFormula) {
  const int leaves = 8, down = 8, up = 4, spines = 4;
  StatusOr<Graph> g = BuildText(TwoTier(leaves, down, up, spines));
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->num_hosts(), static_cast<size_t>(leaves * down));
  EXPECT_EQ(g->num_switches(), static_cast<size_t>(leaves + spines));
  const std::vector<TierLoad> tiers = TierLoads(*g);
  ASSERT_EQ(tiers.size(), 2u);
  EXPECT_DOUBLE_EQ(tiers[0].oversubscription(), 2.0);
  EXPECT_DOUBLE_EQ(tiers[1].up_bps, 0);
  const double r = 100e9;
  const double hosts = leaves * down;
  // Exact: max-flow over integer bps, and the formula's terms are whole multiples of r.
  EXPECT_DOUBLE_EQ(BisectionBps(*g), std::min(hosts / 2 * r, leaves / 2.0 * up * r));
  for (const Node& n : g->nodes()) {
    if (n.role == "leaf") {
      EXPECT_EQ(n.links.size(), static_cast<size_t>(down + up)) << n.name;
    }
    if (n.role == "spine") {
      EXPECT_EQ(n.links.size(), static_cast<size_t>(leaves * up / spines));
    }
  }
  EXPECT_EQ(DiameterLinks(*g), 4u);  // host, leaf, spine, leaf, host
}

// The research topology of the issue: 256 hosts, 32 leaves of 8 down / 4 up, pods of 4 leaves
// and 4 aggregation switches, 16 core switches.
TEST(ClosTest, ThreeTierResearchTopologyExactly) {
  StatusOr<Graph> g = BuildText(std::string(kClasses) + R"(
    clos { host_link_class: "host" pods: 8
      tier { switches: 32 down_links: 8 up_links: 4 uplink_class: "up" }
      tier { role: "agg" switches: 32 down_links: 4 up_links: 4 uplink_class: "up" }
      tier { role: "core" switches: 16 down_links: 8 } })");
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->num_hosts(), 256u);
  EXPECT_EQ(g->num_switches(), 32u + 32u + 16u);
  EXPECT_EQ(g->links().size(), 256u + 32u * 4 + 32u * 4);
  // Leaf l is in pod l / 4 and reaches exactly the 4 aggregation switches of its pod.
  for (int l = 0; l < 32; ++l) {
    const Node& leaf = g->node(*g->FindNode("leaf" + std::to_string(l)));
    for (uint16_t p = 8; p < 12; ++p) {
      const Node& agg = g->node(g->Peer({*g->FindNode(leaf.name), p}).node);
      EXPECT_EQ(agg.role, "agg");
      EXPECT_EQ(agg.pod, l / 4) << leaf.name << " port " << p;
    }
  }
  // Aggregation switch j of every pod reaches the 4 cores of plane j.
  for (int a = 0; a < 32; ++a) {
    const NodeId id = *g->FindNode("agg" + std::to_string(a));
    for (uint16_t p = 4; p < 8; ++p) {
      const Node& core = g->node(g->Peer({id, p}).node);
      EXPECT_EQ(core.index / 4, a % 4) << "agg" << a;
    }
  }
  const std::vector<TierLoad> tiers = TierLoads(*g);
  ASSERT_EQ(tiers.size(), 3u);
  EXPECT_DOUBLE_EQ(tiers[0].oversubscription(), 2.0);
  EXPECT_DOUBLE_EQ(tiers[1].oversubscription(), 1.0);
  // Halves are pods 0-3 and 4-7: the cut is the 16 leaves' 64 up-links, min(128, 64) x 100G.
  EXPECT_DOUBLE_EQ(BisectionBps(*g), 64 * 100e9);
  EXPECT_EQ(DiameterLinks(*g), 6u);
}

TEST(ClosTest, RefusesCountsThatDoNotDivideWithTheFieldPath) {
  // 3 up-links over 4 spines.
  EXPECT_EQ(ErrorOf(TwoTier(8, 8, 3, 4)).rfind("clos.tier[0].up_links: ", 0), 0u);
  // 8 x 4 up-links against 4 spines x 6 down-links.
  std::string text = TwoTier(8, 8, 4, 4);
  text.replace(text.find("down_links: 8 }"), 15, "down_links: 6 }");
  EXPECT_EQ(ErrorOf(text).rfind("clos.tier[1].down_links: ", 0), 0u) << ErrorOf(text);
  // Radix exceeded.
  text = TwoTier(8, 8, 4, 4);
  text.replace(text.find("uplink_class"), 0, "radix: 10 ");
  EXPECT_EQ(ErrorOf(text).rfind("clos.tier[0].radix: ", 0), 0u) << ErrorOf(text);
  // The global cap of ports per switch.
  EXPECT_EQ(ErrorOf(TwoTier(2, 1000, 100, 1)).rfind("clos.tier[0].down_links: ", 0), 0u);
  // Pods that do not divide the leaves.
  const std::string pods = std::string(kClasses) + R"(
    clos { host_link_class: "host" pods: 3
      tier { switches: 32 down_links: 8 up_links: 4 uplink_class: "up" }
      tier { switches: 32 down_links: 4 up_links: 4 uplink_class: "up" }
      tier { switches: 16 down_links: 8 } })";
  EXPECT_EQ(ErrorOf(pods).rfind("clos.tier[0].switches: ", 0), 0u) << ErrorOf(pods);
  EXPECT_EQ(
      ErrorOf(std::string(kClasses) + "clos { host_link_class: \"nope\" }").rfind("clos.tier: ", 0),
      0u);
}

TEST(ClosTest, RefusesUnknownLinkClass) {
  std::string text = TwoTier(8, 8, 4, 4);
  text.replace(text.find("uplink_class: \"up\""), 18, "uplink_class: \"fast\"");
  EXPECT_EQ(ErrorOf(text), "clos.tier[0].uplink_class: no link_class is named \"fast\"");
}

}  // namespace
}  // namespace fe::topo
