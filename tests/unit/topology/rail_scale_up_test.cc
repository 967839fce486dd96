#include <gtest/gtest.h>

#include <set>
#include <string>

#include "build_test_util.h"
#include "topology/engines.h"
#include "topology/link_class.h"
#include "topology/metrics.h"

namespace fe::topo {
namespace {

constexpr char kRail[] = R"(
  link_class { name: "nic" rate_gbps: 400 length_m: 2 }
  link_class { name: "up" rate_gbps: 400 media: CPO ports_per_engine: 4 }
  link_class { name: "nvl" rate_gbps: 1600 delay_ns: 100 }
  rail_optimized { servers: 8 accelerators_per_server: 4 servers_per_rail_group: 4 spines: 2
                   rail_up_links: 4 host_link_class: "nic" uplink_class: "up" }
)";

TEST(RailOptimizedTest, NicIOfEveryServerInAGroupIsOnRailSwitchI) {
  StatusOr<Graph> g = BuildText(kRail);
  ASSERT_TRUE(g.ok()) << g.status().message();
  const int servers = 8, n = 4, per_group = 4;
  EXPECT_EQ(g->num_hosts(), static_cast<size_t>(servers * n));
  EXPECT_EQ(g->num_switches(), static_cast<size_t>(servers / per_group * n + 2));
  for (int s = 0; s < servers; ++s) {
    for (int i = 0; i < n; ++i) {
      const NodeId host = g->hosts()[s * n + i];
      ASSERT_EQ(g->node(host).links.size(), 1u);
      const Node& rail = g->node(g->Peer({host, 0}).node);
      EXPECT_EQ(rail.name, "rail" + std::to_string(s / per_group * n + i));
    }
  }
  // Delay from 2 m at 5 ns/m.
  EXPECT_EQ(g->link(g->node(g->hosts()[0]).links[0]).delay, Time::FromNs(10));
  // 4 host links down, 4 up per rail switch: 1:1; the cut is every host link of one half.
  EXPECT_DOUBLE_EQ(TierLoads(*g)[0].oversubscription(), 1.0);
  EXPECT_DOUBLE_EQ(BisectionBps(*g), 16 * 400e9);
}

TEST(RailOptimizedTest, CpoUplinksFormEnginesOfTheClassSize) {
  StatusOr<Graph> g = BuildText(kRail);
  ASSERT_TRUE(g.ok());
  // Each rail switch has 4 CPO up-links (one engine of 4); each spine 8 rail switches x 2 (4
  // engines of 4).
  const std::vector<OpticalEngine> engines = OpticalEngines(*g);
  EXPECT_EQ(engines.size(), 8u * 1 + 2u * 4);
  for (const OpticalEngine& e : engines) EXPECT_EQ(e.ports.size(), 4u);
  // 32 CPO links x 2 ends x the CPO default pJ/bit x 400 Gb/s; DAC draws none. A relative
  // 1e-12 covers the doubles' rounding.
  const double want_w = 32 * 2 * DefaultPjPerBit(Media::kCpo) * 1e-12 * 400e9;
  EXPECT_NEAR(ComputeMetrics(*g).optics_power_w, want_w, want_w * 1e-12);
}

TEST(RailOptimizedTest, RefusesServersThatDoNotSplitIntoGroups) {
  std::string text = kRail;
  text.replace(text.find("servers: 8"), 10, "servers: 6");
  EXPECT_EQ(ErrorOf(text).rfind("rail_optimized.servers_per_rail_group: ", 0), 0u);
  text = kRail;
  text.replace(text.find("rail_up_links: 4"), 16, "rail_up_links: 3");
  EXPECT_EQ(ErrorOf(text).rfind("rail_optimized.rail_up_links: ", 0), 0u);
}

TEST(RailOptimizedTest, RefusesAFabricOfOneHost) {
  std::string text = kRail;
  text.replace(text.find("servers: 8 accelerators_per_server: 4 servers_per_rail_group: 4"), 63,
               "servers: 1 accelerators_per_server: 1 servers_per_rail_group: 1");
  EXPECT_EQ(ErrorOf(text),
            "rail_optimized.servers: 1 server of 1 accelerator is one host: traffic needs two");
}

TEST(ScaleUpTest, SwitchesJoinExactlyTheirDomainAfterTheNic) {
  const int m = 8, k = 2;
  StatusOr<Graph> g = BuildText(std::string(kRail) +
                                "scale_up { domain_size: 8 "
                                "switches_per_domain: 2 link_class: \"nvl\" }");
  ASSERT_TRUE(g.ok()) << g.status().message();
  for (uint32_t h = 0; h < g->num_hosts(); ++h) {
    const NodeId id = g->hosts()[h];
    const Node& host = g->node(id);
    EXPECT_EQ(host.domain, static_cast<int32_t>(h / m));
    ASSERT_EQ(host.links.size(), 1u + k);
    EXPECT_EQ(g->node(g->Peer({id, 0}).node).role, "rail");  // port 0 stays the NIC
    for (uint16_t p = 1; p <= k; ++p) {
      const Node& su = g->node(g->Peer({id, p}).node);
      EXPECT_EQ(su.role, "su");
      EXPECT_EQ(su.tier, 0);
      EXPECT_EQ(su.name, "su" + std::to_string(h / m * k + p - 1));
    }
  }
  for (NodeId id = 0; id < g->nodes().size(); ++id) {
    const Node& n = g->node(id);
    if (n.role != "su") continue;
    std::set<int32_t> endpoints;
    for (uint16_t p = 0; p < n.links.size(); ++p) {
      const NodeId peer = g->Peer({id, p}).node;
      EXPECT_EQ(g->node(peer).domain, n.domain);
      endpoints.insert(g->HostIndex(peer));
    }
    EXPECT_EQ(endpoints.size(), static_cast<size_t>(m)) << n.name;
    EXPECT_EQ(*endpoints.begin(), n.domain * m);
  }
  // HostPortTo keeps traffic inside a domain on the scale-up ports.
  EXPECT_GE(g->HostPortTo(0, 7), 1);
  EXPECT_EQ(g->HostPortTo(0, 8), 0);
}

TEST(ScaleUpTest, RefusesADomainSizeThatDoesNotDivideTheEndpoints) {
  EXPECT_EQ(ErrorOf(std::string(kRail) + "scale_up { domain_size: 5 link_class: \"nvl\" }")
                .rfind("scale_up.domain_size: ", 0),
            0u);
  EXPECT_EQ(ErrorOf(std::string(kRail) +
                    "scale_up { domain_size: 8 switches_per_domain: 65 link_class: \"nvl\" }")
                .rfind("scale_up.switches_per_domain: must be in [1, 64]", 0),
            0u);
  EXPECT_EQ(ErrorOf(std::string(kRail) + "scale_up { domain_size: 8 }"),
            "scale_up.link_class: demanded: the name of a link_class");
}

}  // namespace
}  // namespace fe::topo
