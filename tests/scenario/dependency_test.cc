// Messages that wait for others, end to end: flow lists with `after` on a k = 4 fat-tree whose
// links all have a 1 us delay (so the fabric's lookahead is 1 us). Each start is checked against
// the closed form of docs/workloads.md, "How dependencies are modelled": the dependant starts at
// max(start_ns, delivery + delay), the delay raised to the lookahead when the delivery happened at
// another host than the dependant's sender.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "control/emulation/emulation.h"
#include "control/run/report_writer.h"
#include "control/run/software_run.h"
#include "control/scenario/scenario_loader.h"
#include "flows_csv.h"
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
  const fe::testing::ScenarioRun r = fe::testing::RunScenarioText(
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
      "fail.textproto", 1);
  EXPECT_FALSE(r.run.stopped_early);
  const dp::MessageTable& m = r.run.emulation->fabric->messages();
  EXPECT_TRUE(m.sender[0].unreachable);
  for (const uint32_t id : {1u, 2u}) {
    EXPECT_FALSE(m.sender[id].started()) << id;
    EXPECT_TRUE(m.sender[id].cancelled) << id;
    EXPECT_TRUE(m.finished(id)) << id;
  }
  EXPECT_TRUE(m.completed(3));
  EXPECT_FALSE(m.sender[3].cancelled);
}

// Inside a scale-up domain a message is sent by a scale-up NIC of its host (Fabric::sender), not
// the scale-out one: the release must start it there, and the closed form still holds.
TEST(DependencyTest, ScaleUpMessagesStartOnTheirScaleUpNic) {
  auto scenario = LoadScenarioText(
      R"pb(
        topology {
          link_class { name: "nic" rate_gbps: 400 length_m: 3 }
          link_class { name: "scale_up" rate_gbps: 1600 delay_ns: 150 }
          rail_optimized {
            servers: 4
            accelerators_per_server: 4
            servers_per_rail_group: 4
            spines: 2
            rail_up_links: 2
            host_link_class: "nic"
            uplink_class: "nic"
          }
          scale_up { domain_size: 4 switches_per_domain: 2 link_class: "scale_up" }
        }
        traffic {
          flow_list {
            flow { src_host: 0 dst_host: 1 message_bytes: 100000 }
            flow { src_host: 1 dst_host: 2 message_bytes: 100000 after: 0 delay_ns: 50 }
            flow { src_host: 5 dst_host: 9 message_bytes: 100000 after: 1 }
          }
        }
      )pb",
      "up.textproto");
  ASSERT_TRUE(scenario.ok()) << scenario.status().message();
  auto e = BuildEmulation(*scenario, 1, ".", dp::PoolMemory::kHostPages);
  ASSERT_TRUE(e.ok()) << e.status().message();
  dp::Fabric& f = *(*e)->fabric;
  // Messages 0 and 1 stay in domain 0 (hosts 0-3): scale-up ports; message 2 leaves it.
  ASSERT_GE((*e)->graph.HostPortTo(1, 2, 1), 1);
  ASSERT_EQ((*e)->graph.HostPortTo(5, 9, 2), 0);
  (*e)->sched.EnableWindows(f.lookahead(), f.num_domains());
  (*e)->sched.RunUntil(Time::Infinite());
  const std::vector<MessageOutcome> o = OutcomesOf(f.messages());
  ASSERT_NE(o[2].delivered, Time::Infinite());
  EXPECT_EQ(o[1].started, o[0].delivered + Time::FromNs(50));
  EXPECT_EQ(o[2].started, o[1].delivered + f.lookahead());
  EXPECT_EQ(f.sender(1).counters().data_packets_sent, f.messages().info[1].packets_total);
}

// A given-up message whose last bytes arrive after all: its dependants, cancelled at the give-up,
// are revoked and released by the delivery, once. The reports go straight to the release, as the
// NICs would make them.
TEST(DependencyTest, ALateDeliveryOfAGivenUpMessageReleasesItsDependants) {
  auto scenario = LoadScenarioText(
      R"pb(
        topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }
        traffic {
          flow_list {
            flow { src_host: 0 dst_host: 1 message_bytes: 1000 }
            flow { src_host: 1 dst_host: 2 message_bytes: 1000 after: 0 delay_ns: 500 }
            flow { src_host: 3 dst_host: 4 message_bytes: 1000 after: 1 }
          }
        }
      )pb",
      "late.textproto");
  ASSERT_TRUE(scenario.ok()) << scenario.status().message();
  auto e = BuildEmulation(*scenario, 1, ".", dp::PoolMemory::kHostPages);
  ASSERT_TRUE(e.ok()) << e.status().message();
  DependencyRelease& release = *(*e)->release;
  const dp::MessageTable& m = (*e)->fabric->messages();
  release.OnGivenUp(0);
  EXPECT_TRUE(m.sender[1].cancelled && m.sender[2].cancelled);
  EXPECT_TRUE(m.finished(1) && m.finished(2));
  release.OnDelivered(0, Time::FromNs(10));
  EXPECT_FALSE(m.sender[1].cancelled || m.sender[2].cancelled);
  (*e)->sched.RunUntil(Time::Infinite());  // message 0's real delivery is reported again
  EXPECT_EQ(release.releases(), 2u);
  // Delivered at h1, which sends message 1: the local wait, 500 ns.
  EXPECT_EQ(m.sender[1].started_at, Time::FromNs(510));
  EXPECT_EQ(m.sender[2].started_at, m.receiver[1].delivered_at + kLookahead);
}

// flows.csv and summary.json of a scenario run, the summary without its wall-clock fields.
struct Outputs {
  std::string flows;
  std::string summary;
};

Outputs RunOutputs(const std::string& text, uint64_t seed) {
  fe::testing::ScenarioRun r = fe::testing::RunScenarioText(text, "deps.textproto", seed);
  const FlowMetrics metrics = CollectFlowMetrics(*r.run.emulation, 4096);
  Outputs o;
  o.flows =
      FlowsCsv(metrics, r.run.emulation->workload, OutcomesOf(r.run.emulation->fabric->messages()));
  auto summary =
      nlohmann::ordered_json::parse(SummaryJson(r.scenario, seed, r.run, metrics.Summarize()));
  for (const char* wall : {"wall_time_s", "packet_hops_per_wall_s", "events_per_wall_s"}) {
    summary.erase(wall);
  }
  o.summary = summary.dump();
  return o;
}

// Four jobs: the chain and fan-in, a job of 64 flows each waiting for the two before it, incast
// and permutation, the last two without dependencies.
std::string ManyJobs() {
  std::string text = kChainAndFanIn;
  text.replace(text.find("run {"), 0, "traffic { job: \"ladder\" dscp: 10 flow_list {\n");
  std::string ladder;
  for (int i = 0; i < 64; ++i) {
    ladder += "flow { src_host: " + std::to_string(i % 16) +
              " dst_host: " + std::to_string((i + 5) % 16) +
              " message_bytes: " + std::to_string(1000 + 997 * i);
    if (i >= 1) ladder += " after: " + std::to_string(i - 1);
    if (i >= 2) ladder += " after: " + std::to_string(i - 2);
    ladder += " delay_ns: " + std::to_string(37 * i) + " }\n";
  }
  text.replace(text.find("run {"), 0,
               ladder +
                   "} }\ntraffic { incast { senders: 6 receiver_host: 3 message_bytes: "
                   "200000 } }\ntraffic { permutation { message_bytes: 100000 } }\n");
  return text;
}

TEST(DependencyTest, NoFlowInFlowsCsvStartsBeforeItsDependenciesAreDelivered) {
  const Outputs o = RunOutputs(ManyJobs(), 3);
  size_t checked = 0;
  EXPECT_EQ(fe::testing::StartsAfterDependencies(o.flows, &checked), "");
  // 7 dependencies in the first job, 1 + 62 x 2 in the ladder.
  EXPECT_EQ(checked, 7u + 1 + 62 * 2);
  const auto summary = nlohmann::json::parse(o.summary);
  ASSERT_EQ(summary["jobs"].size(), 4u);
  EXPECT_EQ(summary["jobs"][0]["name"], "flow_list0");
  EXPECT_EQ(summary["jobs"][1]["name"], "ladder");
  EXPECT_EQ(summary["jobs"][1]["dscp"], 10);
  EXPECT_EQ(summary["jobs"][2]["name"], "incast2");
  EXPECT_EQ(summary["jobs"][3]["kind"], "permutation");
  // The ladder's bytes: sum of 1000 + 997 i over i < 64.
  EXPECT_EQ(summary["jobs"][1]["bytes"], 64 * 1000 + 997 * 63 * 64 / 2);
  uint64_t messages = 0;
  for (const auto& job : summary["jobs"]) {
    messages += job["messages"].get<uint64_t>();
    EXPECT_EQ(job["messages"], job["messages_completed"]);
  }
  EXPECT_EQ(messages, summary["flows_total"].get<uint64_t>());
}

TEST(DependencyTest, SameSeedGivesTheSameBytes) {
  const Outputs a = RunOutputs(ManyJobs(), 3);
  const Outputs b = RunOutputs(ManyJobs(), 3);
  EXPECT_EQ(a.flows, b.flows);
  EXPECT_EQ(a.summary, b.summary);
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
