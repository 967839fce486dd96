// The slowdown yardstick against the emulator itself: a message alone in an idle fabric, sent at
// line rate, completes exactly when the closed form of control/ideal_fct says, to the
// picosecond, on paths whose links differ in rate and delay (the slowest link first, in the
// middle, or a scale-up link). Each message starts long after the one before has finished.
#include <gtest/gtest.h>

#include <string>

#include "control/emulation/emulation.h"
#include "control/run/report_writer.h"
#include "control/scenario/scenario_loader.h"

namespace fe::control {
namespace {

// Runs `text` to its end; every flow's FCT must equal its ideal FCT.
void ExpectEveryFlowAtItsIdealFct(const std::string& text, size_t flows) {
  StatusOr<fabric_emu::Scenario> s = LoadScenarioText(text, "t.textproto");
  ASSERT_TRUE(s.ok()) << s.status().message();
  StatusOr<std::unique_ptr<Emulation>> e = BuildEmulation(*s, 1, ".");
  ASSERT_TRUE(e.ok()) << e.status().message();
  (*e)->sched.RunUntil(Time::Infinite());
  const FlowMetrics metrics = CollectFlowMetrics(**e, s->nic().mtu_payload_bytes());
  const std::vector<FlowRecord> records = metrics.SortedRecords();
  ASSERT_EQ(records.size(), flows);
  for (const FlowRecord& r : records) {
    ASSERT_TRUE(r.completed) << "flow " << r.id;
    EXPECT_GT(r.ideal_fct, Time::Zero()) << "flow " << r.id;
    EXPECT_EQ(r.fct(), r.ideal_fct) << "flow " << r.id << ": " << r.src_host << " -> " << r.dst_host
                                    << ", " << r.size_bytes << " B";
  }
}

// Leaf/spine, 2 hosts per leaf: host links and up-links at their own rates and delays. Flows:
// within a leaf (2 links), across leaves (4 links), full packets only and with a short tail.
std::string Clos(const char* host_class, const char* up_class) {
  return std::string("topology {\n") + "  link_class { name: \"host\" " + host_class + " }\n" +
         "  link_class { name: \"up\" " + up_class + " }\n" +
         "  clos {\n"
         "    host_link_class: \"host\"\n"
         "    tier { switches: 2 down_links: 2 up_links: 2 uplink_class: \"up\" }\n"
         "    tier { switches: 2 down_links: 2 }\n"
         "  }\n"
         "}\n"
         "traffic { flow_list {\n"
         "  flow { src_host: 0 dst_host: 1 message_bytes: 40960 }\n"
         "  flow { src_host: 0 dst_host: 3 message_bytes: 100001 start_ns: 1e6 }\n"
         "  flow { src_host: 2 dst_host: 1 message_bytes: 777 start_ns: 2e6 }\n"
         "} }\n";
}

TEST(IdealFctFabricTest, ALoneMessageTakesItsIdealTimeWhenTheHostLinkIsTheBottleneck) {
  ExpectEveryFlowAtItsIdealFct(Clos("rate_gbps: 100 delay_ns: 10", "rate_gbps: 400 length_m: 100"),
                               3);
}

TEST(IdealFctFabricTest, ALoneMessageTakesItsIdealTimeWhenTheMiddleIsTheBottleneck) {
  ExpectEveryFlowAtItsIdealFct(Clos("rate_gbps: 400 delay_ns: 10", "rate_gbps: 25 delay_ns: 700"),
                               3);
}

// Within a scale-up domain a message crosses two scale-up links (1600 Gb/s, 150 ns); between
// domains it leaves by the NIC.
TEST(IdealFctFabricTest, ALoneMessageInAScaleUpDomainTakesTheScaleUpLinksIdealTime) {
  ExpectEveryFlowAtItsIdealFct(
      "topology {\n"
      "  link_class { name: \"nic\" rate_gbps: 400 delay_ns: 15 }\n"
      "  link_class { name: \"up\" rate_gbps: 400 delay_ns: 250 }\n"
      "  link_class { name: \"su\" rate_gbps: 1600 delay_ns: 150 }\n"
      "  rail_optimized {\n"
      "    servers: 4 accelerators_per_server: 2 servers_per_rail_group: 2 spines: 2\n"
      "    rail_up_links: 2 host_link_class: \"nic\" uplink_class: \"up\"\n"
      "  }\n"
      "  scale_up { domain_size: 4 link_class: \"su\" }\n"
      "}\n"
      "traffic { flow_list {\n"
      "  flow { src_host: 0 dst_host: 3 message_bytes: 1048576 }\n"
      "  flow { src_host: 1 dst_host: 6 message_bytes: 1048577 start_ns: 1e6 }\n"
      "} }\n",
      2);
}

}  // namespace
}  // namespace fe::control
