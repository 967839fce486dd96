// summary.json's failures section against the run's own counters: every frame a link failure
// lost is a link_down drop (one failure, no overlap: the two counts are the same frames), and a
// scenario without failures has no section.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "control/run/report_writer.h"
#include "control/scenario/scenario_loader.h"

namespace fe::control {
namespace {

nlohmann::json RunAndSummarise(const std::string& text) {
  StatusOr<fabric_emu::Scenario> s = LoadScenarioText(text, "t.textproto");
  EXPECT_TRUE(s.ok()) << s.status().message();
  if (!s.ok()) return {};
  SoftwareRunOptions options;
  options.out_dir = ::testing::TempDir();
  StatusOr<SoftwareRunResult> run = RunSoftware(*s, options);
  EXPECT_TRUE(run.ok()) << run.status().message();
  if (!run.ok()) return {};
  const FlowMetrics metrics = CollectFlowMetrics(*run->emulation, s->nic().mtu_payload_bytes());
  return nlohmann::json::parse(SummaryJson(*s, 1, *run, metrics.Summarize()));
}

// A k = 4 fat-tree under a permutation of 1 MB messages; edge0's first up-link dies at 5 us, and
// routes leave it out 10 us later. Frames sent into it meanwhile are lost and resent.
constexpr char kFailing[] =
    "topology {\n"
    "  fat_tree { k: 4 }\n"
    "  failure { at_ns: 5000 link { a: \"edge0\" b: \"agg0\" } }\n"
    "  routing { reconverge_delay_ns: 10000 }\n"
    "}\n"
    "nic { transport { retransmit_timeout_ns: 100000 } }\n"
    "traffic { permutation { message_bytes: 1048576 } }\n"
    "run { progress: false }\n";

TEST(FailuresSummaryTest, FramesLostToALinkFailureAreItsLinkDownDrops) {
  const nlohmann::json j = RunAndSummarise(kFailing);
  ASSERT_TRUE(j.contains("failures")) << j.dump(2);
  const nlohmann::json& events = j["failures"]["events"];
  ASSERT_EQ(events.size(), 1u) << j["failures"].dump(2);
  EXPECT_EQ(events[0]["kind"], "link_down");
  EXPECT_EQ(events[0]["target"], "edge0-agg0[0]");
  EXPECT_EQ(events[0]["at_ns"], 5000.0);
  EXPECT_EQ(events[0]["reroute_ns"], 15000.0);
  const uint64_t lost = events[0]["frames_lost"];
  EXPECT_GT(lost, 0u);
  EXPECT_EQ(lost, j["drops"]["by_reason"]["link_down"].get<uint64_t>());
  EXPECT_GT(events[0]["flows_affected"].get<uint64_t>(), 0u);
  // Another path remains for every pair: nothing is unreachable, and everything completes.
  EXPECT_EQ(j["failures"]["unreachable_flows"], 0u);
  EXPECT_EQ(j["flows_completed"], j["flows_total"]);
}

// Host 0's only link dies at 1 us and routes take it in at once: the messages from and to host 0
// have no path left, 2 of a permutation's 16 (host 0 sends one and receives one), and the console
// says so beside the count of completed ones; the switches drop what still heads to host 0 as
// no_route, not as an unknown address.
TEST(FailuresSummaryTest, MessagesGivenUpForWantOfAPathAreCountedOnTheConsole) {
  const std::string text =
      "topology {\n"
      "  fat_tree { k: 4 }\n"
      "  failure { at_ns: 1000 link { a: \"h0\" b: \"edge0\" } }\n"
      "}\n"
      "traffic { permutation { message_bytes: 1048576 } }\n"
      "run { progress: false }\n";
  StatusOr<fabric_emu::Scenario> s = LoadScenarioText(text, "t.textproto");
  ASSERT_TRUE(s.ok()) << s.status().message();
  SoftwareRunOptions options;
  options.out_dir = ::testing::TempDir();
  StatusOr<SoftwareRunResult> run = RunSoftware(*s, options);
  ASSERT_TRUE(run.ok()) << run.status().message();
  const FlowMetrics metrics = CollectFlowMetrics(*run->emulation, s->nic().mtu_payload_bytes());
  const std::string console = HumanSummary(*s, 1, *run, metrics.Summarize());
  EXPECT_NE(console.find("  messages  14 of 16 completed"), std::string::npos) << console;
  EXPECT_NE(console.find("  given up  2 messages: 2 with no live path after a failure, 0 after "
                         "nic.transport.retry_count timeouts\n"),
            std::string::npos)
      << console;
  const nlohmann::json j = nlohmann::json::parse(SummaryJson(*s, 1, *run, metrics.Summarize()));
  EXPECT_EQ(j["drops"]["by_reason"]["unknown_destination"], 0u);
}

TEST(FailuresSummaryTest, ARunWithoutFailuresHasNoSection) {
  const nlohmann::json j = RunAndSummarise(
      "topology { fat_tree { k: 4 } }\n"
      "traffic { permutation { message_bytes: 4096 } }\n"
      "run { progress: false }\n");
  EXPECT_FALSE(j.contains("failures"));
}

}  // namespace
}  // namespace fe::control
