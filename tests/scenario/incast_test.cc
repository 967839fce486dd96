// 8:1 incast on a k = 4 fat-tree through the scenario file, lossy and lossless: what summary.json
// must show of the switch buffers, drops and PFC.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "control/run/report_writer.h"
#include "control/run/software_run.h"
#include "control/scenario/scenario_loader.h"

namespace fe::control {
namespace {

// Hosts 4..11 (pods 1 and 2) each send 256 KiB to host 0 (pod 0).
constexpr char kTraffic[] = R"pb(
  topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }
  traffic {
    flow_list {
      flow { src_host: 4 dst_host: 0 message_bytes: 262144 }
      flow { src_host: 5 dst_host: 0 message_bytes: 262144 }
      flow { src_host: 6 dst_host: 0 message_bytes: 262144 }
      flow { src_host: 7 dst_host: 0 message_bytes: 262144 }
      flow { src_host: 8 dst_host: 0 message_bytes: 262144 }
      flow { src_host: 9 dst_host: 0 message_bytes: 262144 }
      flow { src_host: 10 dst_host: 0 message_bytes: 262144 }
      flow { src_host: 11 dst_host: 0 message_bytes: 262144 }
    }
  }
  run { seed: 3 }
)pb";

nlohmann::json RunSummary(const std::string& switch_section) {
  auto scenario = LoadScenarioText(std::string(kTraffic) + switch_section, "incast.textproto");
  EXPECT_TRUE(scenario.ok()) << scenario.status().message();
  SoftwareRunOptions opt;
  opt.seed = 3;
  auto run = RunSoftware(*scenario, opt);
  EXPECT_TRUE(run.ok()) << run.status().message();
  const FlowMetrics metrics = CollectFlowMetrics(*run->emulation, 4096);
  return nlohmann::json::parse(SummaryJson(*scenario, 3, *run, metrics.Summarize()));
}

uint64_t SumOver(const nlohmann::json& queues, const char* field) {
  uint64_t n = 0;
  for (const auto& q : queues) n += q[field].get<uint64_t>();
  return n;
}

TEST(IncastScenarioTest, LossySmallBufferDropsAndConservesPackets) {
  // 128 KiB: drops fall inside the bursts, so go-back-N discards what follows a gap whichever
  // sender wins ties at the full queue (with a 256 KiB buffer one tie order left one discard,
  // another none).
  const auto j = RunSummary(R"pb(switch {
                                   buffer_bytes: 131072
                                   pfc { enabled: false }
                                 })pb");
  const uint64_t drops = j["drops"]["packets"].get<uint64_t>();
  EXPECT_GT(drops, 0u);
  // Drops are at queue limits only, and listed where they happened.
  EXPECT_EQ(j["drops"]["by_reason"]["queue_limit"].get<uint64_t>(), drops);
  uint64_t listed = 0;
  for (const auto& q : j["switch_queues"]) {
    if (q["drops"].contains("queue_limit")) listed += q["drops"]["queue_limit"].get<uint64_t>();
  }
  EXPECT_EQ(listed, drops);
  // Every data packet sent was delivered, dropped (the reverse path loses nothing) or reached
  // its receiver past a gap or twice and was discarded by go-back-N.
  EXPECT_EQ(j["packets_sent"].get<uint64_t>(),
            j["packets_delivered"].get<uint64_t>() + drops +
                j["retransmissions"]["discarded_packets"].get<uint64_t>());
  // Delivered means accepted in order: the messages' own packets, each once. 8 messages of
  // 256 KiB at the default 4096-byte MTU are 8 x 64 packets.
  EXPECT_EQ(j["packets_delivered"], 8 * 64);
  EXPECT_GT(j["retransmissions"]["discarded_packets"].get<uint64_t>(), 0u);
  EXPECT_EQ(SumOver(j["switch_queues"], "pause_frames_sent"), 0u);
  EXPECT_EQ(j["flows_completed"], 8);
  EXPECT_EQ(j["mbufs_in_use_at_end"], 0);
}

TEST(IncastScenarioTest, LosslessDropsNothingAndPauses) {
  const auto j = RunSummary(R"pb(switch {
                                   buffer_bytes: 1048576
                                   pfc { xoff_bytes: 65536 }
                                 })pb");
  EXPECT_EQ(j["drops"]["packets"], 0);
  EXPECT_EQ(j["bytes_delivered"], 8 * 262144);
  EXPECT_EQ(j["packets_sent"], j["packets_delivered"]);
  const uint64_t sent = SumOver(j["switch_queues"], "pause_frames_sent");
  EXPECT_GT(sent, 0u);
  // Every pause frame crosses one link and is received by the port at its other end, switch or
  // host: the frames received, summed over switch ports and host uplinks, are those sent (XOFF,
  // refreshes and XON alike).
  const uint64_t resumes = SumOver(j["switch_queues"], "resume_frames_sent");
  const uint64_t received = SumOver(j["switch_queues"], "pause_frames_received") +
                            SumOver(j["paused_host_uplinks"], "pause_frames_received");
  EXPECT_EQ(received, sent + resumes);
  // The receiver's edge switch buffered the incast: its port to host 0 (port 0) held data.
  EXPECT_EQ(j["switch_queues"][0]["switch"], "edge0");
  EXPECT_GT(j["switch_queues"][0]["max_depth_bytes"].get<uint64_t>(), 4154u);
}

}  // namespace
}  // namespace fe::control
