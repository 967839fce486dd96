// A flow is complete when its sender has the ACK of its last packet, in every output. A run
// stopped while last ACKs are on their way back must count those flows as delivered but not
// complete, and account for every frame still in the fabric.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "control/run/report_writer.h"
#include "scenario_run.h"
#include "traffic/message_outcomes.h"

namespace fe::control {
namespace {

// k = 8 fat-tree at 400 Gb/s with 10 us links; hosts 16, 32, ..., 96 (pods 1 to 6) each send
// 100 kB to host 0 (pod 0). A path crosses 6 links: the last byte of a message cannot arrive
// before 60 us, nor an ACK get back before 120 us. The six messages, 600 kB together, cross
// host 0's link in 12 us, so all six are delivered by about 73 us. Stopped at 100 us: every
// message delivered, none complete.
constexpr char kIncast[] = R"pb(
  topology { fat_tree { k: 8 link_rate_gbps: 400 link_delay_ns: 10000 } }
  traffic {
    flow_list {
      flow { src_host: 16 dst_host: 0 message_bytes: 100000 }
      flow { src_host: 32 dst_host: 0 message_bytes: 100000 }
      flow { src_host: 48 dst_host: 0 message_bytes: 100000 }
      flow { src_host: 64 dst_host: 0 message_bytes: 100000 }
      flow { src_host: 80 dst_host: 0 message_bytes: 100000 }
      flow { src_host: 96 dst_host: 0 message_bytes: 100000 }
    }
  }
  run { progress: false stop_ns: 100000 }
)pb";

TEST(CompletionAtStopTest, DeliveredFlowsAwaitingTheirLastAckAreNotComplete) {
  const testing::ScenarioRun r = testing::RunScenarioText(kIncast, "incast_stop.textproto", 1);
  ASSERT_NE(r.run.emulation, nullptr);
  const Emulation& e = *r.run.emulation;
  const dp::MessageTable& m = e.fabric->messages();
  const FlowMetrics metrics = CollectFlowMetrics(e, 4096);
  const nlohmann::json j =
      nlohmann::json::parse(SummaryJson(r.scenario, 1, r.run, metrics.Summarize()));

  // The physics above: six delivered, none acknowledged.
  for (uint32_t id = 0; id < m.size(); ++id) {
    EXPECT_TRUE(m.delivered(id)) << id;
    EXPECT_FALSE(m.completed(id)) << id;
  }
  EXPECT_TRUE(r.run.stopped_early);
  EXPECT_EQ(j["stop_reason"], "run.stop_ns");
  EXPECT_EQ(j["flows_completed"], 0u);
  EXPECT_EQ(j["flows_delivered_unacknowledged"], 6u);
  EXPECT_EQ(j["flows_undelivered"], 0u);
  EXPECT_EQ(j["flows_total"].get<uint64_t>(),
            j["flows_completed"].get<uint64_t>() +
                j["flows_delivered_unacknowledged"].get<uint64_t>() +
                j["flows_undelivered"].get<uint64_t>());
  EXPECT_EQ(j["jobs"][0]["messages_completed"], 0u);
  EXPECT_TRUE(j["fct_ns"]["p50"].is_null());  // no completed flow, no FCT
  EXPECT_TRUE(j["slowdown"]["p99"].is_null());

  // Every frame still in the fabric is a data packet, an ACK or a CNP (the receiver answers CE
  // marks even when the senders run no congestion control) sent and not yet received: no frame
  // was dropped and no pause frame sent. Every ACK sent is still on its way.
  const dp::FabricTotals t = e.fabric->Totals();
  ASSERT_EQ(t.drops.total_packets(), 0u);
  EXPECT_EQ(j["paused_host_uplinks"].size(), 0u);
  for (const auto& q : j["switch_queues"]) {
    EXPECT_EQ(q["pause_frames_sent"], 0u);
    EXPECT_EQ(q["resume_frames_sent"], 0u);
  }
  EXPECT_EQ(t.nics.acks_received, 0u);
  EXPECT_GT(t.nics.acks_sent, 0u);
  EXPECT_EQ(j["mbufs_in_use_at_end"].get<uint64_t>(),
            (t.nics.data_packets_sent - t.nics.data_packets_received) +
                (t.nics.acks_sent - t.nics.acks_received) +
                (t.nics.cnps_sent - t.nics.cnps_received));

  // flows.csv: no row has a finish, as no flow is complete.
  const std::vector<MessageOutcome> outcomes = OutcomesOf(m);
  std::istringstream csv(FlowsCsv(metrics, e.workload, outcomes));
  std::string line;
  std::getline(csv, line);
  int rows = 0;
  while (std::getline(csv, line)) {
    ++rows;
    // id,src,dst,size,cnps,retx,start_ns,finish_ns,...: the eighth field is empty.
    std::istringstream fields(line);
    std::string field;
    for (int i = 0; i < 8; ++i) std::getline(fields, field, ',');
    EXPECT_EQ(field, "") << line;
  }
  EXPECT_EQ(rows, 6);
  const std::string human = HumanSummary(r.scenario, 1, r.run, metrics.Summarize());
  EXPECT_NE(human.find("0 of 6 completed"), std::string::npos) << human;
  EXPECT_NE(human.find("6 messages delivered but not acknowledged, 0 not delivered"),
            std::string::npos)
      << human;
}

TEST(CompletionAtStopTest, EveryOutputCountsTheFlowsWhoseLastAckArrived) {
  // Run on to 140 us: past the 120 us round trip the ACKs come back, and what each output calls
  // complete is exactly what the senders' table holds as completed.
  std::string text = kIncast;
  text.replace(text.find("stop_ns: 100000"), 15, "stop_ns: 140000");
  const testing::ScenarioRun r = testing::RunScenarioText(text, "incast_stop.textproto", 1);
  ASSERT_NE(r.run.emulation, nullptr);
  const dp::MessageTable& m = r.run.emulation->fabric->messages();
  uint64_t acked = 0;
  for (uint32_t id = 0; id < m.size(); ++id) acked += m.completed(id) ? 1 : 0;
  const FlowMetrics metrics = CollectFlowMetrics(*r.run.emulation, 4096);
  const nlohmann::json j =
      nlohmann::json::parse(SummaryJson(r.scenario, 1, r.run, metrics.Summarize()));
  EXPECT_EQ(j["flows_completed"], acked);
  EXPECT_EQ(j["jobs"][0]["messages_completed"], acked);
  EXPECT_EQ(j["flows_total"].get<uint64_t>(),
            acked + j["flows_delivered_unacknowledged"].get<uint64_t>() +
                j["flows_undelivered"].get<uint64_t>());
}

}  // namespace
}  // namespace fe::control
