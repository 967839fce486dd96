// queues.csv through the scenario file: a 2:1 incast into one switch port, whose queue must grow
// at the rate the two inputs exceed the output by, and the CSV the run writes.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "control/report/queue_sampler.h"
#include "control/run/software_run.h"
#include "control/scenario/scenario_loader.h"

namespace fe::control {
namespace {

// Host 0 (edge0, the same edge switch) and host 4 (pod 1) each send 1 MB to host 1 at line rate,
// without congestion control or PFC: edge0's port to host 1 takes 200 Gb/s and drains 100.
constexpr char kIncast[] = R"pb(
  topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }
  switch { pfc { enabled: false } }
  nic { cc { none {} } }
  traffic {
    flow_list {
      flow { src_host: 0 dst_host: 1 message_bytes: 1000000 }
      flow { src_host: 4 dst_host: 1 message_bytes: 1000000 }
    }
  }
  run { queue_sample_interval_ns: 5000 }
)pb";

TEST(QueueDepthScenarioTest, TheBottleneckQueueGrowsByTheExcessOfItsInputs) {
  auto scenario = LoadScenarioText(kIncast, "incast.textproto");
  ASSERT_TRUE(scenario.ok()) << scenario.status().message();
  auto run = RunSoftware(*scenario, SoftwareRunOptions{});
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_NE(run->queues, nullptr);
  const topo::Graph& graph = run->emulation->graph;

  // The deepest queue of the run is the bottleneck; its depth at 20 and 40 us.
  const QueueSample* deepest = nullptr;
  for (const QueueSample& s : run->queues->samples()) {
    EXPECT_EQ(s.at.ps() % 5'000'000, 0) << "samples fall on the 5 us grid";
    if (deepest == nullptr || s.depth_bytes > deepest->depth_bytes) deepest = &s;
  }
  ASSERT_NE(deepest, nullptr);
  EXPECT_EQ(graph.node(deepest->node).name, "edge0");
  std::map<int64_t, uint32_t> depth_at_us;
  for (const QueueSample& s : run->queues->samples()) {
    if (s.node == deepest->node && s.port == deepest->port && s.queue == deepest->queue) {
      depth_at_us[s.at.ps() / 1'000'000] = s.depth_bytes;
    }
  }
  ASSERT_TRUE(depth_at_us.count(20) && depth_at_us.count(40));
  // From about 7 us on (host 4's first frame crosses five links) both inputs deliver a 4158-byte
  // frame (4096 payload + 58 header, ICRC and FCS bytes) every 4178 wire bytes at 100 Gb/s, and
  // the output sends one: the queue gains one frame per 334.24 ns. A sample may fall while a
  // frame is half received (not counted yet) or half sent (already gone): one frame either way
  // at each of the two samples.
  const double frame_bytes = 4158, frame_ns = 4178 * 8 / 100.0;
  const double want = 20'000 / frame_ns * frame_bytes;
  const double got = static_cast<double>(depth_at_us[40]) - depth_at_us[20];
  EXPECT_NEAR(got, want, 2 * frame_bytes);
  RecordProperty("growth_bytes", std::to_string(got) + " (analytic " + std::to_string(want) + ")");

  // After the last message completes the queue has drained, and the sampler stops.
  const std::string csv = QueuesCsv(run->queues->samples(), graph);
  EXPECT_EQ(csv.rfind("time_ns,switch,port,queue,depth_bytes\n", 0), 0u);
  EXPECT_NE(csv.find("\n20000.000,edge0," + std::to_string(deepest->port) + "," +
                     std::to_string(deepest->queue) + "," + std::to_string(depth_at_us[20]) + "\n"),
            std::string::npos);
  EXPECT_EQ(depth_at_us.rbegin()->second, 0u);
  EXPECT_LE(run->queues->samples().back().at, run->simulated_time + Time::FromUs(5));
}

// The samplers hold their rows until the run ends: a grid too fine for the run stops it with an
// error that names the intervals to raise, instead of exhausting memory, and keeps what it ran
// so far for the outputs, as any other stop does. (The default bound is 20 million rows; a small
// one here.)
TEST(QueueDepthScenarioTest, TooManyRowsStopTheRunWithAWayOut) {
  auto scenario = LoadScenarioText(kIncast, "incast.textproto");
  ASSERT_TRUE(scenario.ok()) << scenario.status().message();
  // 20 MB each: 4 ms of sending, some 200,000 events, so that the run is stopped between its
  // first slices (65,536 events each) rather than at its end.
  for (auto& flow : *scenario->mutable_traffic(0)->mutable_flow_list()->mutable_flow()) {
    flow.set_message_bytes(20'000'000);
  }
  SoftwareRunOptions options;
  options.max_sample_rows = 20;
  auto run = RunSoftware(*scenario, options);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->stop_reason, "sample row limit");
  EXPECT_TRUE(run->stopped_early);
  EXPECT_NE(run->failure.find("more than 20 rows"), std::string::npos);
  EXPECT_NE(run->failure.find("raise run.rate_sample_interval_ns or run.queue_sample_interval_ns"),
            std::string::npos);
  // The rows so far: past the bound by at most one slice of the run, and all of them before the
  // stop.
  ASSERT_GT(run->queues->samples().size(), 20u);
  EXPECT_LE(run->queues->samples().back().at, run->simulated_time);
  options.max_sample_rows = kMaxSampleRows;
  auto whole = RunSoftware(*scenario, options);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->stop_reason, "");
  EXPECT_GT(whole->queues->samples().size(), run->queues->samples().size());
}

}  // namespace
}  // namespace fe::control
