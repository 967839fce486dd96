// Messages that wait for others, end to end: flow lists with `after` on a k = 4 fat-tree whose
// links all have a 1 us delay (so the fabric's lookahead is 1 us). Each start is checked against
// the closed form of docs/workloads.md, "How dependencies are modelled": the dependant starts at
// max(start_ns, delivery + delay), the delay raised to the lookahead when the delivery happened at
// another host than the dependant's sender.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "control/emulation.h"
#include "control/scenario_loader.h"
#include "control/software_run.h"
#include "scenario_run.h"
#include "traffic/message_outcomes.h"

namespace fe::control {
namespace {

constexpr Time kLookahead = Time::FromNs(1000);

// Flow 0 h0 -> h1; 1 h1 -> h2 waits 500 ns after 0 (delivered at its sender: local); 2 h5 -> h6
// waits 200 ns after 1 (delivered at h2: remote, so 1 us); 3 h2 -> h3 waits 3 us after 1 (local);
// 4 h7 -> h0 waits 100 ns after 0, 2 and 3 (all remote); 5 h1 -> h9 waits for 0 but not before
// 1 ms; 6 h8 -> h9 waits for nothing.
constexpr char kChainAndFanIn[] = R"pb(
  name: "deps"
  topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }
  traffic {
    flow_list {
      flow { src_host: 0 dst_host: 1 message_bytes: 100000 }
      flow { src_host: 1 dst_host: 2 message_bytes: 50000 after: 0 delay_ns: 500 }
      flow { src_host: 5 dst_host: 6 message_bytes: 20000 after: 1 delay_ns: 200 }
      flow { src_host: 2 dst_host: 3 message_bytes: 30000 after: 1 delay_ns: 3000 }
      flow {
        src_host: 7
        dst_host: 0
        message_bytes: 10000
        after: [ 0, 2, 3 ]
        delay_ns: 100
      }
      flow { src_host: 1 dst_host: 9 message_bytes: 4096 start_ns: 1000000 after: 0 }
      flow { src_host: 8 dst_host: 9 message_bytes: 65536 start_ns: 2000 }
    }
  }
  run { seed: 3 }
)pb";

std::vector<MessageOutcome> RunDeps(const std::string& text, bool windows) {
  auto scenario = LoadScenarioText(text, "deps.textproto");
  EXPECT_TRUE(scenario.ok()) << scenario.status().message();
  if (!scenario.ok()) return {};
  auto e = BuildEmulation(*scenario, 3, ".", dp::PoolMemory::kHostPages);
  EXPECT_TRUE(e.ok()) << e.status().message();
  if (!e.ok()) return {};
  if (windows) (*e)->sched.EnableWindows((*e)->fabric->lookahead(), (*e)->fabric->num_domains());
  (*e)->sched.RunUntil(Time::Infinite());
  return OutcomesOf((*e)->fabric->messages());
}

TEST(DependencyTest, EachStartIsTheClosedFormOfItsDependenciesDeliveries) {
  const std::vector<MessageOutcome> o = RunDeps(kChainAndFanIn, true);
  ASSERT_EQ(o.size(), 7u);
  for (const MessageOutcome& m : o) ASSERT_NE(m.delivered, Time::Infinite());
  EXPECT_EQ(o[0].started, Time::Zero());
  EXPECT_EQ(o[6].started, Time::FromNs(2000));
  EXPECT_EQ(o[1].started, o[0].delivered + Time::FromNs(500));
  EXPECT_EQ(o[2].started, o[1].delivered + kLookahead);
  EXPECT_EQ(o[3].started, o[1].delivered + Time::FromNs(3000));
  EXPECT_EQ(o[4].started, std::max({o[0].delivered, o[2].delivered, o[3].delivered}) + kLookahead);
  EXPECT_EQ(o[5].started, Time::FromNs(1000000));
  // The fan-in's last dependency is the chain's end (0 -> 1 -> 3): the bound is not vacuous.
  EXPECT_GT(o[3].delivered, o[0].delivered);
}

TEST(DependencyTest, RunsWithAndWithoutWindowsAreIdentical) {
  const std::vector<MessageOutcome> a = RunDeps(kChainAndFanIn, true);
  const std::vector<MessageOutcome> b = RunDeps(kChainAndFanIn, false);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].started, b[i].started) << i;
    EXPECT_EQ(a[i].delivered, b[i].delivered) << i;
    EXPECT_EQ(a[i].completed, b[i].completed) << i;
  }
}

// h0's link dies at 0 for good: flow 0 (h1 -> h0) is given up at the reconvergence, so flow 1,
// which waits for it, and flow 2, which waits for flow 1, never start; flow 3 is independent.
// With the samplers on, the run must still end (they stop once every message is finished).
TEST(DependencyTest, DependantsOfAGivenUpMessageNeverStartAndTheRunEnds) {
  auto scenario = LoadScenarioText(
      R"pb(
        topology {
          fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 }
          failure {
            at_ns: 0
            link { a: "h0" b: "edge0" }
          }
          routing { reconverge_delay_ns: 1000 }
        }
        traffic {
          flow_list {
            flow { src_host: 1 dst_host: 0 message_bytes: 100000 }
            flow { src_host: 0 dst_host: 2 message_bytes: 1000 after: 0 }
            flow { src_host: 3 dst_host: 4 message_bytes: 1000 after: 1 }
            flow { src_host: 5 dst_host: 6 message_bytes: 100000 }
          }
        }
        run { seed: 1 rate_sample_interval_ns: 10000 queue_sample_interval_ns: 10000 }
      )pb",
      "fail.textproto");
  ASSERT_TRUE(scenario.ok()) << scenario.status().message();
  SoftwareRunOptions opt;
  opt.seed = 1;
  auto run = RunSoftware(*scenario, opt);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_FALSE(run->stopped_early);
  const dp::MessageTable& m = run->emulation->fabric->messages();
  EXPECT_TRUE(m.sender[0].unreachable);
  for (const uint32_t id : {1u, 2u}) {
    EXPECT_FALSE(m.sender[id].started()) << id;
    EXPECT_TRUE(m.sender[id].cancelled) << id;
    EXPECT_TRUE(m.finished(id)) << id;
  }
  EXPECT_TRUE(m.completed(3));
  EXPECT_FALSE(m.sender[3].cancelled);
}

TEST(DependencyTest, FlowListDependencyErrorsNameTheEntryAndItsLine) {
  const std::string head = "topology { fat_tree { k: 4 } }\ntraffic { flow_list {\n";
  const auto load = [&](const std::string& flows) {
    return LoadScenarioText(head + flows + "} }\n", "d.textproto");
  };
  const auto unknown = load(
      "flow { src_host: 0 dst_host: 1 message_bytes: 10 }\n"
      "flow { src_host: 1 dst_host: 2 message_bytes: 10 after: 0 after: 7 }\n");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "d.textproto:4: traffic[0].flow_list.flow[1].after[1]: no flow 7 in this list of 2 "
            "(indices start at 0)");
  const auto self = load("flow { src_host: 0 dst_host: 1 message_bytes: 10 after: 0 }\n");
  ASSERT_FALSE(self.ok());
  EXPECT_EQ(self.status().message(),
            "d.textproto:3: traffic[0].flow_list.flow[0].after[0]: a flow cannot wait for itself");
  const auto cycle = load(
      "flow { src_host: 0 dst_host: 1 message_bytes: 10 }\n"
      "flow { src_host: 1 dst_host: 2 message_bytes: 10\n after: 3 }\n"
      "flow { src_host: 2 dst_host: 3 message_bytes: 10 after: 1 }\n"
      "flow { src_host: 3 dst_host: 4 message_bytes: 10 after: 2 }\n");
  ASSERT_FALSE(cycle.ok());
  EXPECT_EQ(cycle.status().message(),
            "d.textproto:5: traffic[0].flow_list.flow[1].after[0]: flows wait for one another in a "
            "cycle and would never start: 1 -> 3 -> 2 -> 1 (each waits for the next)");
}

}  // namespace
}  // namespace fe::control
