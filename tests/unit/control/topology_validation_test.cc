// What the validator asks of the built topology: its errors placed at their line, names that
// select switches (overrides, capture), failures resolved against the graph, and the numbers the
// rest of the scenario is checked against (hosts, ports, INT depth) taken from the graph. Each
// refused scenario fails to load (fabric-emu exits 2 and runs nothing) with exactly one
// "FILE:LINE: field.path: reason".
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "control/emulation/emulation.h"
#include "control/run/capture.h"
#include "control/scenario/scenario_loader.h"

namespace fe::control {
namespace {

// A 2:1 leaf/spine: 4 leaves with 8 hosts down and 4 up-links, 2 spines with 8 down-links each
// (2 parallel links to every leaf). 32 hosts; a leaf has 12 ports, a spine 8.
constexpr char kClos[] =
    "topology {\n"                                                                  // 1
    "  link_class { name: \"dac\" rate_gbps: 100 delay_ns: 10 }\n"                  // 2
    "  link_class { name: \"optic\" rate_gbps: 400 delay_ns: 500 }\n"               // 3
    "  clos {\n"                                                                    // 4
    "    host_link_class: \"dac\"\n"                                                // 5
    "    tier { switches: 4 down_links: 8 up_links: 4 uplink_class: \"optic\" }\n"  // 6
    "    tier { switches: 2 down_links: 8 }\n"                                      // 7
    "  }\n"                                                                         // 8
    "}\n";                                                                          // 9

// The one error `text` is refused with; empty if it loads.
std::string OnlyError(const std::string& text) {
  const StatusOr<fabric_emu::Scenario> s = LoadScenarioText(text, "t.textproto");
  if (s.ok()) return "";
  const std::string m = s.status().message();  // a copy: the status is a temporary
  EXPECT_EQ(m.find('\n'), std::string::npos) << "more than one error:\n" << m;
  return m;
}

bool StartsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

TEST(TopologyValidationTest, AClosLoadsAndItsHostsAreTheGraphs) {
  EXPECT_EQ(OnlyError(std::string(kClos) + "traffic { flow_list { flow { src_host: 0 dst_host: "
                                           "31 message_bytes: 1 } } }\n"),
            "");
  const std::string e = OnlyError(std::string(kClos) +
                                  "traffic { flow_list { flow { src_host: 0 dst_host: 32 "
                                  "message_bytes: 1 } } }\n");
  EXPECT_TRUE(StartsWith(e,
                         "t.textproto:10: traffic[0].flow_list.flow[0].dst_host: must be a "
                         "host index in [0, 31] (the topology has 32 hosts)"))
      << e;
}

// 4 leaves x 3 up-links over 2 spines: 3 does not split into 2 (the builder's rule, at the
// line of the field it names).
TEST(TopologyValidationTest, OversubscriptionThatDoesNotDivideIsRefusedAtItsLine) {
  std::string text = kClos;
  text.replace(text.find("up_links: 4"), 11, "up_links: 3");
  const std::string e = OnlyError(text);
  EXPECT_TRUE(StartsWith(e,
                         "t.textproto:6: topology.clos.tier[0].up_links: 3 up-links do not "
                         "split evenly over the 2"))
      << e;
}

// The builder names tier[1]: the line of the second tier, not the first.
TEST(TopologyValidationTest, ABuilderPathWithAnIndexFindsItsElementsLine) {
  std::string text = kClos;
  text.replace(text.find("switches: 2 down_links: 8"), 25, "switches: 2 down_links: 9");
  const std::string e = OnlyError(text);
  EXPECT_TRUE(StartsWith(e,
                         "t.textproto:7: topology.clos.tier[1].down_links: 4 leaf x 4 "
                         "up-links = 16 links, but 2 spine x 9 down-links = 18"))
      << e;
}

TEST(TopologyValidationTest, AnErrorInAGraphFileIsPlacedAtTheFileField) {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / "topology_validation_graph";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "fabric.txtpb") << "node { name: \"h0\" host: true }\n"
                                         "node { name: \"h1\" host: true }\n"
                                         "node { name: \"s0\" }\n"
                                         "link { a: \"h0\" b: \"s0\" link_class: \"dac\" }\n"
                                         "link { a: \"h1\" b: \"s9\" link_class: \"dac\" }\n";
  const std::string text =
      "topology {\n"
      "  link_class { name: \"dac\" rate_gbps: 100 }\n"
      "  graph { file: \"fabric.txtpb\" }\n"
      "}\n";
  const StatusOr<fabric_emu::Scenario> s = LoadScenarioText(text, (dir / "s.textproto").string());
  ASSERT_FALSE(s.ok());
  const std::string e = s.status().message();
  EXPECT_TRUE(StartsWith(e, (dir / "s.textproto").string() + ":3: topology.graph.file: ")) << e;
  EXPECT_NE(e.find("fabric.txtpb:5: link[1].b: no node is named \"s9\""), std::string::npos) << e;
}

TEST(TopologyValidationTest, AFailureNamingAnUnknownLinkIsRefused) {
  const std::string e = OnlyError(
      "topology {\n"
      "  fat_tree { k: 4 }\n"
      "  failure { at_ns: 1000 link { a: \"edge0\" b: \"core0\" } }\n"
      "}\n");
  EXPECT_TRUE(StartsWith(e,
                         "t.textproto:3: topology.failure[0].link: no link between edge0 and "
                         "core0"))
      << e;
}

TEST(TopologyValidationTest, EveryBadFailureIsReportedAtItsLine) {
  const StatusOr<fabric_emu::Scenario> s = LoadScenarioText(
      "topology {\n"
      "  fat_tree { k: 4 }\n"
      "  failure { at_ns: 1000 link { a: \"edge0\" b: \"core0\" } }\n"
      "  failure { at_ns: 1000 switch_name: \"core0\" }\n"
      "  failure { at_ns: -1 switch_name: \"nobody\" }\n"
      "}\n",
      "t.textproto");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(),
            "t.textproto:3: topology.failure[0].link: no link between edge0 and core0\n"
            "t.textproto:5: topology.failure[2].switch_name: no node named \"nobody\"");
}

TEST(TopologyValidationTest, AFailureTimeOutsideTheScenarioRangeIsRefused) {
  const std::string e = OnlyError(
      "topology {\n"
      "  fat_tree { k: 4 }\n"
      "  failure {\n"
      "    at_ns: 1e16\n"
      "    switch_name: \"core0\"\n"
      "  }\n"
      "}\n");
  EXPECT_TRUE(StartsWith(e,
                         "t.textproto:4: topology.failure[0].at_ns: must be in [0, "
                         "1000000000000000] ns"))
      << e;
}

TEST(TopologyValidationTest, AnOverrideOfATierTheFabricLacksIsRefused) {
  const std::string e =
      OnlyError(std::string(kClos) +
                "switch {\n"
                "  tier_override { tier: CORE config { buffer_bytes: 1000000 } }\n"
                "}\n");
  EXPECT_TRUE(StartsWith(e,
                         "t.textproto:11: switch.tier_override[0].tier: no switch is in tier "
                         "CORE; this fabric's switches are in EDGE, AGGREGATION"))
      << e;
}

TEST(TopologyValidationTest, AnOverrideNamingAnUnknownRoleIsRefused) {
  const std::string e =
      OnlyError(std::string(kClos) +
                "switch {\n"
                "  role_override { role: \"tor\" config { buffer_bytes: 1000000 } }\n"
                "}\n");
  EXPECT_TRUE(StartsWith(e,
                         "t.textproto:11: switch.role_override[0].role: no switch has role "
                         "\"tor\"; the roles are leaf, spine"))
      << e;
}

TEST(TopologyValidationTest, AnOverrideNamingAnUnknownSwitchIsRefused) {
  const std::string e =
      OnlyError(std::string(kClos) +
                "switch {\n"
                "  role_override { name: \"leaf4\" config { buffer_bytes: 1000000 } }\n"
                "}\n");
  EXPECT_TRUE(StartsWith(e,
                         "t.textproto:11: switch.role_override[0].name: no switch is named "
                         "\"leaf4\""))
      << e;
}

TEST(TopologyValidationTest, AnOverrideGivesRoleOrNameNotBoth) {
  const std::string e = OnlyError(std::string(kClos) +
                                  "switch {\n"
                                  "  role_override {\n"
                                  "    role: \"leaf\" name: \"leaf0\"\n"
                                  "  }\n"
                                  "}\n");
  EXPECT_TRUE(StartsWith(e,
                         "t.textproto:11: switch.role_override[0]: give role or name, not "
                         "both"))
      << e;
}

// A leaf has 12 ports (8 down, 4 up): 12 x 100000 bytes of reserve exceed a 1 MB buffer, while
// a spine's 8 x 100000 fit. The leaves' override is checked with the leaves' port count. (PFC is
// off: no headroom is reserved besides.)
TEST(TopologyValidationTest, ReservesAreCheckedWithThePortsOfTheSwitchesAnOverrideSelects) {
  const std::string spines_ok =
      std::string(kClos) +
      "switch {\n"
      "  queue { priority: 0 reserved_bytes: 100000 }\n"
      "  pfc { enabled: false }\n"
      "  role_override { role: \"spine\" config { buffer_bytes: 1000000 } }\n"
      "}\n";
  EXPECT_EQ(OnlyError(spines_ok), "");
  std::string leaves = spines_ok;
  leaves.replace(leaves.find("role: \"spine\""), 13, "role: \"leaf\"");
  const std::string e = OnlyError(leaves);
  EXPECT_TRUE(StartsWith(e,
                         "t.textproto:13: switch.role_override[0].config.buffer_bytes: must "
                         "hold the reserves of all 12 ports, 12 x 100000 = 1200000"))
      << e;
  EXPECT_NE(e.find("for the leaf switches"), std::string::npos) << e;
}

// Without a switch section, each switch is built with its own ports' links: a leaf's 400 Gb/s
// up-links of 1 ms need 2 x 50 MB of PFC headroom each, beyond the default 16 MiB buffer. The
// fault is the class's delay, and it is reported there.
TEST(TopologyValidationTest, ASwitchThatItsLinksCannotBuildIsReportedAtTheLinkClass) {
  std::string text = kClos;
  text.replace(text.find("delay_ns: 500"), 13, "delay_ns: 1e6");
  const std::string e = OnlyError(text);
  EXPECT_TRUE(StartsWith(e,
                         "t.textproto:3: topology.link_class[1].delay_ns: the switch leaf0 "
                         "cannot be built with the default switch settings"))
      << e;
  EXPECT_TRUE(
      e.ends_with("; give the switches a larger buffer (switch { buffer_bytes: ... }) or "
                  "shorter links"))
      << e;
}

TEST(TopologyValidationTest, CaptureSelectsASwitchByNameWithItsOwnPortCount) {
  const std::string capture = std::string(kClos) + "capture { port { switch_port { name: ";
  EXPECT_EQ(OnlyError(capture + "\"leaf3\" port: 11 } } }\n"), "");
  const std::string too_far = OnlyError(capture + "\"spine1\" port: 8 } } }\n");
  EXPECT_TRUE(StartsWith(too_far,
                         "t.textproto:10: capture.port[0].switch_port.port: must be in "
                         "[0, 7] (spine1 has 8 ports), got 8"))
      << too_far;
  const std::string unknown = OnlyError(capture + "\"spine2\" port: 0 } } }\n");
  EXPECT_TRUE(StartsWith(unknown,
                         "t.textproto:10: capture.port[0].switch_port.name: no switch "
                         "is named \"spine2\""))
      << unknown;
  const std::string both = OnlyError(capture + "\"leaf0\" tier: EDGE index: 0 port: 0 } } }\n");
  EXPECT_TRUE(StartsWith(both,
                         "t.textproto:10: capture.port[0].switch_port.name: give the switch "
                         "by name, or by tier and index, not both"))
      << both;
}

// A chain h0 - s0 - s1 - ... - s5 - h1 crosses 6 switches; HPCC's INT stack holds 5.
TEST(TopologyValidationTest, HpccIsRefusedWhereARouteCrossesMoreSwitchesThanItsStackHolds) {
  const auto chain = [](int switches) {
    std::string text =
        "topology {\n"
        "  link_class { name: \"c\" rate_gbps: 100 delay_ns: 100 }\n"
        "  graph {\n"
        "    node { name: \"h0\" host: true }\n"
        "    node { name: \"h1\" host: true }\n";
    for (int i = 0; i < switches; ++i) {
      text += "    node { name: \"s" + std::to_string(i) + "\" }\n";
    }
    text += "    link { a: \"h0\" b: \"s0\" link_class: \"c\" }\n";
    for (int i = 1; i < switches; ++i) {
      text += "    link { a: \"s" + std::to_string(i - 1) + "\" b: \"s" + std::to_string(i) +
              "\" link_class: \"c\" }\n";
    }
    text += "    link { a: \"s" + std::to_string(switches - 1) +
            "\" b: \"h1\" link_class: \"c\" }\n  }\n}\nnic {\n  cc {\n    hpcc { }\n  }\n}\n";
    return text;
  };
  EXPECT_EQ(OnlyError(chain(5)), "");
  const std::string e = OnlyError(chain(6));
  // 3 lines, 2 hosts and 6 switches, 7 links, 2 closing lines: nic on line 21, hpcc on 23.
  EXPECT_TRUE(StartsWith(e,
                         "t.textproto:23: nic.cc.hpcc: HPCC's in-band telemetry holds 5 switch "
                         "hops, but the longest route of this topology crosses 6 switches"))
      << e;
}

// The run resolves a capture's switch by name as the validator does.
TEST(TopologyValidationTest, ACaptureByNameRecordsThatSwitchsPort) {
  StatusOr<fabric_emu::Scenario> loaded = LoadScenarioText(
      "topology { fat_tree { k: 4 } }\n"
      "traffic { flow_list { flow { src_host: 0 dst_host: 1 message_bytes: 40960 } } }\n"
      "capture { port { switch_port { name: \"edge0\" port: 1 } } file: \"n.pcapng\" }\n",
      "t.textproto");
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  auto e = BuildEmulation(*loaded, 1, ".");
  ASSERT_TRUE(e.ok()) << e.status().message();
  const std::string dir = ::testing::TempDir();
  auto w = AttachCapture(*loaded, dir, e->get());
  ASSERT_TRUE(w.ok()) << w.status().message();
  (*e)->sched.RunUntil(Time::Infinite());
  DetachCapture(*loaded, e->get());
  // edge0's port 1 leads to host 1 (hosts take the edge's first ports): the 10 data packets of
  // 4096 bytes host 0 sends it.
  EXPECT_EQ((*w)->packets_written(), 10u);
  EXPECT_TRUE((*w)->Close().ok());
  std::filesystem::remove(std::filesystem::path(dir) / "n.pcapng");
}

// A CDF load's size is counted at each host's own link rate: hosts on 100 and 300 Gb/s offering
// their full rate in flows of 1000 bytes on average (uniform on [0, 2000]) for 1 s make
// (100e9 + 300e9) / (8 x 1000) = 5e7 flows, past the 16,776,960 a run holds. (Host 0's rate
// for both would say 2.5e7.)
TEST(TopologyValidationTest, ACdfLoadIsCountedAtEachHostsOwnLinkRate) {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / "topology_validation_cdf";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "uniform.cdf") << "0 0\n2000 100\n";
  const std::string text =
      "topology {\n"
      "  link_class { name: \"slow\" rate_gbps: 100 }\n"
      "  link_class { name: \"fast\" rate_gbps: 300 }\n"
      "  graph {\n"
      "    node { name: \"h0\" host: true }\n"
      "    node { name: \"h1\" host: true }\n"
      "    node { name: \"s0\" }\n"
      "    link { a: \"h0\" b: \"s0\" link_class: \"slow\" }\n"
      "    link { a: \"h1\" b: \"s0\" link_class: \"fast\" }\n"
      "  }\n"
      "}\n"
      "traffic { cdf_load { cdf_file: \"uniform.cdf\" load_fraction: 1 duration_ns: 1e9 } }\n";
  const StatusOr<fabric_emu::Scenario> s = LoadScenarioText(text, (dir / "s.textproto").string());
  ASSERT_FALSE(s.ok());
  const std::string e = s.status().message();
  EXPECT_TRUE(StartsWith(e, (dir / "s.textproto").string() +
                                ":12: traffic[0]: the traffic up to here holds about 50000000 "
                                "messages"))
      << e;
}

}  // namespace
}  // namespace fe::control
