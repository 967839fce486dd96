#include "topology/metrics.h"

#include <gtest/gtest.h>

#include "build_test_util.h"
#include "topology/fat_tree.h"
#include "topology/max_flow.h"

namespace fe::topo {
namespace {

// The flow network of CLRS (3rd ed.) figure 26.1, whose maximum flow is 23.
TEST(MaxFlowTest, TextbookNetwork) {
  MaxFlow f(6);
  f.AddArc(0, 1, 16);
  f.AddArc(0, 2, 13);
  f.AddArc(2, 1, 4);
  f.AddArc(1, 3, 12);
  f.AddArc(3, 2, 9);
  f.AddArc(2, 4, 14);
  f.AddArc(4, 3, 7);
  f.AddArc(3, 5, 20);
  f.AddArc(4, 5, 4);
  EXPECT_EQ(f.Run(0, 5), 23);
}

// A chain of 100,000 vertices: deep enough to overflow a recursive search's stack.
TEST(MaxFlowTest, LongChainCarriesItsNarrowestArc) {
  constexpr uint32_t kVertices = 100000;
  MaxFlow f(kVertices);
  for (uint32_t v = 0; v + 1 < kVertices; ++v) f.AddArc(v, v + 1, v == 5000 ? 3 : 10);
  EXPECT_EQ(f.Run(0, kVertices - 1), 3);
}

class FatTreeMetricsTest : public ::testing::TestWithParam<int> {};

// Full bisection (Al-Fares et al.): half the hosts x the link rate; 1:1 at every tier below the
// core; host to host across pods is 6 links.
TEST_P(FatTreeMetricsTest, MatchTheClosedForms) {
  const int k = GetParam();
  const Rate rate = Rate::FromGbps(100);
  const Graph g = BuildFatTree({.k = k, .link_rate = rate}).value();
  const TopologyMetrics m = ComputeMetrics(g);
  const double hosts = k * k * k / 4.0;
  EXPECT_DOUBLE_EQ(m.bisection_bps, hosts / 2 * static_cast<double>(rate.bps()));
  ASSERT_EQ(m.tiers.size(), 3u);
  EXPECT_DOUBLE_EQ(m.tiers[0].oversubscription(), 1.0);
  EXPECT_DOUBLE_EQ(m.tiers[1].oversubscription(), 1.0);
  EXPECT_EQ(m.tiers[2].up_bps, 0);
  EXPECT_EQ(m.diameter_links, 6u);
  ASSERT_EQ(m.media.size(), 1u);
  EXPECT_EQ(m.media[0].cables, static_cast<uint64_t>(3 * hosts));  // host, edge-agg, agg-core
  EXPECT_EQ(m.optics_power_w, 0);                                  // copper draws nothing itself
  ASSERT_EQ(m.roles.size(), 4u);
  EXPECT_EQ(m.roles[0].role, "host");
  for (size_t r = 1; r < 4; ++r) {
    EXPECT_EQ(m.roles[r].min_ports, static_cast<uint32_t>(k));
    EXPECT_EQ(m.roles[r].max_ports, static_cast<uint32_t>(k));
  }
}

INSTANTIATE_TEST_SUITE_P(K, FatTreeMetricsTest, ::testing::Values(2, 4, 8, 16));

// A 3:1 leaf: bisection is the leaves' up-links, min(H/2 x r, L/2 x U x r).
TEST(MetricsTest, OversubscribedLeavesLimitTheBisection) {
  StatusOr<Graph> g = BuildText(R"(
    link_class { name: "c" rate_gbps: 100 }
    clos { host_link_class: "c"
      tier { switches: 4 down_links: 6 up_links: 2 uplink_class: "c" }
      tier { switches: 2 down_links: 4 } })");
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_DOUBLE_EQ(TierLoads(*g)[0].oversubscription(), 3.0);
  EXPECT_DOUBLE_EQ(BisectionBps(*g), std::min(12 * 100e9, 2 * 2 * 100e9));
}

// Every endpoint in one scale-up domain: any two are 2 links apart, through a scale-up switch.
TEST(MetricsTest, OneDomainHasDiameterTwo) {
  StatusOr<Graph> g = BuildText(R"(
    link_class { name: "c" rate_gbps: 100 }
    link_class { name: "su" rate_gbps: 800 }
    clos { host_link_class: "c"
      tier { switches: 2 down_links: 4 up_links: 1 uplink_class: "c" }
      tier { switches: 1 down_links: 2 } }
    scale_up { domain_size: 8 link_class: "su" })");
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(DiameterLinks(*g), 2u);
}

// Two islands: hosts 0-1 on one switch, 2-3 on another, no link between the switches.
TEST(MetricsTest, DiameterOfDisconnectedHostsIsUnbounded) {
  Graph g;
  LinkClass one_gbps;
  one_gbps.name = "c";
  one_gbps.rate = Rate::FromGbps(1);
  const LinkClassId c = g.AddLinkClass(one_gbps);
  NodeId hosts[4];
  for (int h = 0; h < 4; ++h) hosts[h] = g.AddNode(NodeKind::kHost, 0, -1, "h" + std::to_string(h));
  const NodeId s0 = g.AddNode(NodeKind::kSwitch, 1, -1, "s0");
  const NodeId s1 = g.AddNode(NodeKind::kSwitch, 1, -1, "s1");
  for (int h = 0; h < 4; ++h) g.Connect(hosts[h], h < 2 ? s0 : s1, c);
  EXPECT_EQ(DiameterLinks(g), UINT32_MAX);
  EXPECT_EQ(BisectionBps(g), 0);  // the halves are exactly the islands
  g.Connect(s0, s1, c);
  EXPECT_EQ(DiameterLinks(g), 3u);
  EXPECT_EQ(BisectionBps(g), 1e9);
}

// Power: 2 ends x pJ/bit x rate for each optical link; DAC links draw nothing.
TEST(MetricsTest, OpticsPowerIsTwoEndsTimesEnergyPerBitTimesRate) {
  StatusOr<Graph> g = BuildText(R"(
    link_class { name: "dac" rate_gbps: 100 }
    link_class { name: "opt" rate_gbps: 800 media: PLUGGABLE pj_per_bit: 20 }
    clos { host_link_class: "dac"
      tier { switches: 2 down_links: 4 up_links: 1 uplink_class: "opt" }
      tier { switches: 1 down_links: 2 } })");
  ASSERT_TRUE(g.ok()) << g.status().message();
  const TopologyMetrics m = ComputeMetrics(*g);
  // 2 optical links x 2 ends x 20e-12 J/bit x 800e9 bit/s = 64 W; a relative 1e-12 covers
  // the doubles' rounding.
  EXPECT_NEAR(m.optics_power_w, 64.0, 64.0 * 1e-12);
  ASSERT_EQ(m.media.size(), 2u);
  EXPECT_EQ(m.media[1].optics, 4u);
}

}  // namespace
}  // namespace fe::topo
