// A run that makes no progress stops, says which flow, where its frames are lost and what to
// change. The fabric here loses every data frame: links with the largest bit-error rate allowed
// (1e-3) keep a 4,158-byte frame (33,264 bits) with probability (1 - 1e-3)^33264 ~ 3.5e-15, so
// no data packet crosses even its first link, while nothing else is wrong with the scenario.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "control/run/report_writer.h"
#include "scenario_run.h"

namespace fe::control {
namespace {

using testing::RunScenarioText;

constexpr double kRtoNs = 100'000;

std::string LossyScenario(const std::string& nic_transport, const std::string& run) {
  return R"(topology {
  link_class { name: "noisy" rate_gbps: 100 delay_ns: 1000 bit_error_rate: 1e-3 }
  fat_tree { k: 2 link_class: "noisy" }
}
nic { transport { retransmit_timeout_ns: 100000 )" +
         nic_transport + R"( } }
traffic { flow_list { flow { src_host: 0 dst_host: 1 message_bytes: 4096 } } }
run { progress: false )" +
         run + " }\n";
}

nlohmann::json Summary(const testing::ScenarioRun& r) {
  const FlowMetrics metrics =
      CollectFlowMetrics(*r.run.emulation, r.scenario.nic().mtu_payload_bytes());
  return nlohmann::json::parse(SummaryJson(r.scenario, 1, r.run, metrics.Summarize()));
}

TEST(NoProgressTest, ARunWhoseSenderRunsOutOfRetriesStopsAndSaysWhere) {
  const testing::ScenarioRun r = RunScenarioText(LossyScenario("", ""), "lossy.textproto", 1);
  ASSERT_NE(r.run.emulation, nullptr);
  EXPECT_EQ(r.run.stop_reason, "no progress");
  // The default retry_count 7: the first send and 7 resends, each one RTO before the next
  // timeout; the eighth timeout gives the message up, at 8 RTO.
  EXPECT_EQ(r.run.simulated_time, Time::FromNs(static_cast<int64_t>(kRtoNs)) * 8);
  const dp::FabricTotals t = r.run.emulation->fabric->Totals();
  EXPECT_EQ(t.nics.retransmit_timeouts, 8u);
  EXPECT_EQ(t.nics.retry_exceeded, 1u);
  EXPECT_EQ(t.nics.payload_bytes_received, 0u);
  const std::string& why = r.run.no_progress;
  EXPECT_NE(why.find("nic.transport.retry_count"), std::string::npos) << why;
  EXPECT_NE(why.find("flow 0 (host 0 -> host 1)"), std::string::npos) << why;
  // All 8 transmissions die on the sender's own link.
  EXPECT_NE(why.find("8 frames dropped (bit_error)"), std::string::npos) << why;
  EXPECT_NE(why.find("bit_error_rate"), std::string::npos) << why;
  const nlohmann::json j = Summary(r);
  EXPECT_EQ(j["stop_reason"], "no progress");
  EXPECT_EQ(j["retransmissions"]["retry_exceeded"], 1u);
  EXPECT_EQ(j["flows_completed"], 0u);
}

TEST(NoProgressTest, NoByteDeliveredForTheSpanStopsTheRun) {
  // Retries would last 8 RTO; the span of 2.5 RTO ends the run first, after the timeouts at 1
  // and 2 RTO.
  const testing::ScenarioRun r =
      RunScenarioText(LossyScenario("", "no_progress_timeout_ns: 250000"), "lossy.textproto", 1);
  ASSERT_NE(r.run.emulation, nullptr);
  EXPECT_EQ(r.run.stop_reason, "no progress");
  EXPECT_TRUE(r.run.stopped_early);
  const dp::FabricTotals t = r.run.emulation->fabric->Totals();
  EXPECT_EQ(t.nics.retransmit_timeouts, 2u);
  EXPECT_EQ(t.nics.retry_exceeded, 0u);
  EXPECT_LE(r.run.simulated_time, Time::FromNs(250'000));
  const std::string& why = r.run.no_progress;
  EXPECT_NE(why.find("no payload byte delivered from simulated 0 ns to 250000 ns"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("flow 0 (host 0 -> host 1)"), std::string::npos) << why;
}

TEST(NoProgressTest, WaitingForALaterFlowIsNotAStall) {
  // Nothing is in progress for the first 10 ms: a 1 ms span must not count that.
  const testing::ScenarioRun r = RunScenarioText(R"(topology { fat_tree { k: 2 } }
traffic { flow_list { flow { src_host: 0 dst_host: 1 message_bytes: 4096 start_ns: 1e7 } } }
run { progress: false no_progress_timeout_ns: 1e6 }
)",
                                                 "late.textproto", 1);
  ASSERT_NE(r.run.emulation, nullptr);
  EXPECT_EQ(r.run.stop_reason, "");
  EXPECT_TRUE(r.run.emulation->fabric->messages().completed(0));
}

TEST(NoProgressTest, ALongFlowThatDeliversIsNotAStall) {
  // 10 MB at 100 Gb/s takes over 800 us, eight times the span; bytes arrive all along.
  const testing::ScenarioRun r = RunScenarioText(R"(topology { fat_tree { k: 2 } }
traffic { flow_list { flow { src_host: 0 dst_host: 1 message_bytes: 10000000 } } }
run { progress: false no_progress_timeout_ns: 1e5 }
)",
                                                 "long.textproto", 1);
  ASSERT_NE(r.run.emulation, nullptr);
  EXPECT_EQ(r.run.stop_reason, "");
  EXPECT_TRUE(r.run.emulation->fabric->messages().completed(0));
  EXPECT_GT(r.run.simulated_time, Time::FromUs(800));
}

}  // namespace
}  // namespace fe::control
