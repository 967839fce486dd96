// summary.json's stopped_early means work was left undone at run.stop_ns: a message not yet
// finished. Timers still pending when every message has finished (retransmission deadlines that
// lapse as no-ops) leave nothing undone.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "control/run/report_writer.h"
#include "control/scenario/scenario_loader.h"

namespace fe::control {
namespace {

struct Stopped {
  bool stopped_early = false;
  bool events_left = false;  // the scheduler still held events at the stop
  nlohmann::json summary;
};

// One 1,000-byte flow across a k = 2 fat-tree whose links have a 1 us delay, stopped at
// stop_ns. Its data crosses two links and its ACK two more: it cannot complete before 4 us.
Stopped RunOneFlow(double stop_ns) {
  const std::string text =
      "topology { fat_tree { k: 2 link_delay_ns: 1000 } }\n"
      "traffic { flow_list { flow { src_host: 0 dst_host: 1 message_bytes: 1000 } } }\n"
      "run { progress: false stop_ns: " +
      std::to_string(stop_ns) + " }\n";
  Stopped out;
  StatusOr<fabric_emu::Scenario> s = LoadScenarioText(text, "t.textproto");
  EXPECT_TRUE(s.ok()) << s.status().message();
  if (!s.ok()) return out;
  SoftwareRunOptions options;
  options.out_dir = ::testing::TempDir();
  StatusOr<SoftwareRunResult> run = RunSoftware(*s, options);
  EXPECT_TRUE(run.ok()) << run.status().message();
  if (!run.ok()) return out;
  out.stopped_early = run->stopped_early;
  out.events_left = !run->emulation->sched.empty();
  const FlowMetrics metrics = CollectFlowMetrics(*run->emulation, s->nic().mtu_payload_bytes());
  out.summary = nlohmann::json::parse(SummaryJson(*s, 1, *run, metrics.Summarize()));
  return out;
}

TEST(StoppedEarlyTest, PendingTimersAfterTheLastMessageFinishedAreNotWorkLeft) {
  // 10 ms is far past the flow's completion (a few microseconds) but well inside the default
  // retransmission timeout's reach, so its timer is still pending at the stop.
  const Stopped r = RunOneFlow(1e7);
  ASSERT_TRUE(r.events_left) << "no pending event at the stop: the case is not exercised";
  EXPECT_FALSE(r.stopped_early);
  EXPECT_EQ(r.summary["stopped_early"], false);
  EXPECT_EQ(r.summary["flows_completed"], 1u);
  // The run's length is the flow's completion, between the 4 us bound and the stop.
  const double simulated_ns = r.summary["simulated_time_ns"];
  EXPECT_GE(simulated_ns, 4000.0);
  EXPECT_LT(simulated_ns, 1e7);
}

TEST(StoppedEarlyTest, AStopBeforeTheFlowCanCompleteIsWorkLeft) {
  // At 2 us the data has at most crossed both links; the ACK has not started back.
  const Stopped r = RunOneFlow(2000);
  EXPECT_TRUE(r.stopped_early);
  EXPECT_EQ(r.summary["stopped_early"], true);
  EXPECT_EQ(r.summary["flows_completed"], 0u);
}

}  // namespace
}  // namespace fe::control
