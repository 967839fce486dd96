#include "control/scenario/switch_params.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "topology/fat_tree.h"

namespace fe::control {
namespace {

fabric_emu::SwitchConfig Parse(const char* text) {
  fabric_emu::SwitchConfig sw;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &sw));
  return sw;
}

TEST(SwitchParamsTest, UnsetSectionKeepsThePolicyDefaults) {
  const dp::SwitchParams p = BuildSwitchParams(fabric_emu::SwitchConfig{});
  // Defaults as documented in scenario.proto and docs/switch-buffers.md.
  EXPECT_EQ(p.buffer.total_bytes, 16 * 1024 * 1024);
  EXPECT_TRUE(p.buffer.priorities[3].lossless);
  EXPECT_FALSE(p.buffer.priorities[0].lossless);
  EXPECT_EQ(p.wred[3].kmin_bytes, 5120);
  EXPECT_EQ(p.wred[3].kmax_bytes, 204800);
  EXPECT_TRUE(p.pfc_enabled);
  EXPECT_FALSE(p.headroom_bytes.has_value());
  EXPECT_EQ(p.watchdog.detection_time, Time::FromMs(200));
  EXPECT_TRUE(p.scheduler.queues[6].strict);
  EXPECT_EQ(p.scheduler.queues[0].quantum_bytes, 9216);
  ASSERT_EQ(p.dscp.entries.size(), 2u);
  EXPECT_FALSE(p.decrement_ttl);
}

TEST(SwitchParamsTest, FieldsMapOntoTheirParameters) {
  const dp::SwitchParams p = BuildSwitchParams(Parse(R"(
    dscp_to_priority { dscp: 26 priority: 4 }
    dscp_to_priority { dscp: 10 priority: 1 }
    buffer_bytes: 4000000
    queue { priority: 4 lossless: true alpha: 0.5 reserved_bytes: 1000 dwrr_weight: 3
            wred { kmin_bytes: 1000 kmax_bytes: 2000 pmax: 0.5 mark_at_dequeue: true } }
    pfc { xoff_bytes: 50000 xon_bytes: 40000 headroom_bytes: 30000 response_time_ns: 100 }
    pfc_watchdog { detection_time_ns: 1000 restoration_time_ns: 2000 }
    decrement_ttl: true
  )"));
  // DSCP 26's row is replaced, DSCP 10's added, DSCP 48's kept.
  ASSERT_EQ(p.dscp.entries.size(), 3u);
  EXPECT_EQ(p.dscp.entries[0].priority, 4);
  EXPECT_EQ(p.dscp.entries[2].dscp, 10);
  EXPECT_EQ(p.buffer.total_bytes, 4000000);
  EXPECT_TRUE(p.buffer.priorities[4].lossless);
  EXPECT_EQ(p.buffer.priorities[4].alpha, 0.5);
  EXPECT_EQ(p.buffer.priorities[4].reserved_bytes, 1000);
  EXPECT_EQ(p.scheduler.queues[4].quantum_bytes, 3 * 9216);
  EXPECT_EQ(p.wred[4].kmin_bytes, 1000);
  EXPECT_TRUE(p.wred[4].mark_at_dequeue);
  EXPECT_EQ(p.buffer.priorities[4].pfc.xoff_bytes, 50000);
  EXPECT_EQ(p.buffer.priorities[4].pfc.xon_bytes, 40000);
  EXPECT_EQ(p.headroom_bytes, 30000);
  EXPECT_EQ(p.headroom.peer_response_time, Time::FromNs(100));
  EXPECT_EQ(p.watchdog.detection_time, Time::FromNs(1000));
  EXPECT_EQ(p.watchdog.restoration_time, Time::FromNs(2000));
  EXPECT_TRUE(p.decrement_ttl);
}

TEST(SwitchParamsTest, TierOverrideReplacesOnlyItsFieldsForItsTier) {
  dp::FabricParams f;
  ApplySwitchSection(Parse(R"(
    buffer_bytes: 4000000
    pfc { xoff_bytes: 50000 }
    tier_override { tier: EDGE config { buffer_bytes: 1000000 } }
  )"),
                     topo::Graph(), &f);
  EXPECT_EQ(f.switch_params.buffer.total_bytes, 4000000);
  ASSERT_TRUE(f.tier_switch_params[1].has_value());
  EXPECT_EQ(f.tier_switch_params[1]->buffer.total_bytes, 1000000);
  EXPECT_EQ(f.tier_switch_params[1]->buffer.priorities[3].pfc.xoff_bytes, 50000);
  EXPECT_FALSE(f.tier_switch_params[2].has_value());
  EXPECT_FALSE(f.tier_switch_params[3].has_value());
}

TEST(SwitchParamsTest, TierOverrideInheritsDecrementTtlUnlessItSetsIt) {
  dp::FabricParams f;
  ApplySwitchSection(Parse(R"(
    decrement_ttl: true
    tier_override { tier: EDGE config { buffer_bytes: 1000000 } }
    tier_override { tier: CORE config { decrement_ttl: false } }
  )"),
                     topo::Graph(), &f);
  EXPECT_TRUE(f.switch_params.decrement_ttl);
  ASSERT_TRUE(f.tier_switch_params[1].has_value());
  EXPECT_TRUE(f.tier_switch_params[1]->decrement_ttl);
  ASSERT_TRUE(f.tier_switch_params[3].has_value());
  EXPECT_FALSE(f.tier_switch_params[3]->decrement_ttl);
}

// pfc.cable_length_m sizes the headroom for that cable, not for the emulated link's delay:
// headroom holds 2 x the bytes a cable holds (docs/switch-buffers.md), and a cable of L m holds
// rate x L x 5 ns/m / 8 bytes. Exact: at 100 Gb/s every 100 m is 500 ns, 6250 whole bytes.
TEST(SwitchParamsTest, CableLengthSizesTheHeadroomInsteadOfTheLinkDelay) {
  const std::vector<dp::PortLink> ports = {{Rate::FromGbps(100), Time::FromNs(1000)},
                                           {Rate::FromGbps(400), Time::FromNs(1000)}};
  const auto headroom = [&](const char* text) {
    StatusOr<dp::SwitchConfig> c = dp::Compile(BuildSwitchParams(Parse(text)), ports);
    EXPECT_TRUE(c.ok()) << c.status().message();
    return c.ok() ? c->buffer.headroom_bytes : std::vector<int64_t>{};
  };
  const std::vector<int64_t> from_delay = headroom("");  // 1 us of delay is a 200 m cable
  const std::vector<int64_t> short_cable = headroom("pfc { cable_length_m: 100 }");
  const std::vector<int64_t> long_cable = headroom("pfc { cable_length_m: 300 }");
  ASSERT_EQ(from_delay.size(), 2u);
  ASSERT_EQ(short_cable.size(), 2u);
  ASSERT_EQ(long_cable.size(), 2u);
  for (size_t p = 0; p < ports.size(); ++p) {
    const int64_t bytes_per_100m = ports[p].rate.bps() * 500 / 8 / 1'000'000'000;
    EXPECT_EQ(long_cable[p] - short_cable[p], 2 * 2 * bytes_per_100m) << "port " << p;
    EXPECT_EQ(from_delay[p] - short_cable[p], 2 * 1 * bytes_per_100m) << "port " << p;
  }
  EXPECT_EQ(long_cable[0] - short_cable[0], 25'000);  // 2 x 2 x 6250
}

// Precedence, name over role over tier over the section: each switch gets the section with its
// tier's, its role's and its name's overrides on top, each replacing only the fields it sets.
TEST(SwitchParamsTest, RoleAndNameOverridesSelectSwitchesOfTheGraph) {
  StatusOr<topo::Graph> g = topo::BuildFatTree(topo::FatTreeParams{});  // k = 4
  ASSERT_TRUE(g.ok());
  dp::FabricParams f;
  ApplySwitchSection(Parse(R"(
    buffer_bytes: 4000000
    tier_override { tier: EDGE config { buffer_bytes: 1000000 decrement_ttl: true } }
    role_override { role: "edge" config { buffer_bytes: 2000000 } }
    role_override { name: "edge3" config { pfc { headroom_bytes: 7000 } } }
    role_override { name: "core1" config { buffer_bytes: 3000000 } }
  )"),
                     *g, &f);
  const auto params_of = [&](const char* name) {
    const std::optional<topo::NodeId> n = g->FindNode(name);
    EXPECT_TRUE(n.has_value()) << name;
    return dp::SwitchParamsOf(f, *n, g->node(*n).tier);
  };
  // edge0: the role's buffer over the tier's, the tier's TTL kept.
  EXPECT_EQ(params_of("edge0").buffer.total_bytes, 2000000);
  EXPECT_TRUE(params_of("edge0").decrement_ttl);
  EXPECT_FALSE(params_of("edge0").headroom_bytes.has_value());
  // edge3: the same, and its own headroom.
  EXPECT_EQ(params_of("edge3").buffer.total_bytes, 2000000);
  EXPECT_EQ(params_of("edge3").headroom_bytes, 7000);
  EXPECT_TRUE(params_of("edge3").decrement_ttl);
  // core1 by name; core0 and the aggregation switches keep the section.
  EXPECT_EQ(params_of("core1").buffer.total_bytes, 3000000);
  EXPECT_EQ(params_of("core0").buffer.total_bytes, 4000000);
  EXPECT_EQ(params_of("agg2").buffer.total_bytes, 4000000);
  EXPECT_FALSE(params_of("agg2").decrement_ttl);
  // One variant per named switch and one for the edge role: 8 edges share it but edge3.
  EXPECT_EQ(f.switch_variants.size(), 3u);
}

}  // namespace
}  // namespace fe::control
