// The fabric's counts of messages in progress and unfinished (Fabric::MessagesInProgress,
// MessagesUnfinished), kept by the NICs as messages start, complete, are given up, cancelled
// and moved, against a walk of the message table (MessageTable::in_progress, finished) after
// every few events of runs that do each of those things. The run's loop reads the counts after
// every slice where it walked the table before.
#include <gtest/gtest.h>

#include <string>

#include "control/emulation/emulation.h"
#include "control/scenario/scenario_loader.h"

namespace fe::control {
namespace {

struct Walked {
  uint64_t in_progress = 0;
  uint64_t unfinished = 0;
};

Walked Walk(const dp::MessageTable& m) {
  Walked w;
  for (uint32_t id = 0; id < m.size(); ++id) {
    w.in_progress += m.in_progress(id);
    w.unfinished += !m.finished(id);
  }
  return w;
}

// Runs the scenario `events_per_step` events at a time, comparing the counts with the walk after
// each step; returns how many steps had some message in progress (so that the comparison was
// not only of zeros).
int CompareAlongTheRun(const std::string& text, uint64_t events_per_step) {
  auto scenario = LoadScenarioText(text, "counts.textproto");
  EXPECT_TRUE(scenario.ok()) << scenario.status().message();
  if (!scenario.ok()) return 0;
  auto built = BuildEmulation(*scenario, scenario->run().seed(), ".", dp::PoolMemory::kHostPages);
  EXPECT_TRUE(built.ok()) << built.status().message();
  if (!built.ok()) return 0;
  Emulation& e = **built;
  int busy = 0;
  for (int step = 0; !e.sched.empty(); ++step) {
    e.sched.RunUntil(Time::Infinite(), events_per_step);
    const Walked w = Walk(e.fabric->messages());
    EXPECT_EQ(e.fabric->MessagesInProgress(), w.in_progress) << "step " << step;
    EXPECT_EQ(e.fabric->MessagesUnfinished(), w.unfinished) << "step " << step;
    if (e.fabric->MessagesInProgress() != w.in_progress) return busy;  // one report is enough
    busy += w.in_progress > 0;
  }
  const Walked end = Walk(e.fabric->messages());
  EXPECT_EQ(end.unfinished, 0u);
  return busy;
}

// h0's link dies at 0 for good: flow 0 (h1 -> h0) is given up at the reconvergence while in
// progress, flows 1 and 2, which wait for it, are cancelled unstarted; flow 3 completes.
TEST(MessageCountsTest, GivenUpAndCancelledMessagesAreCountedFinished) {
  EXPECT_GT(CompareAlongTheRun(R"pb(
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
                               )pb",
                               1),
            0);
}

// h0's link to su0 is dead from the start: messages 0 and 2 start on h0's NIC of port 1 and
// move to port 2's, which completes them (one NIC counts the start, another the completion).
TEST(MessageCountsTest, AMessageMovedToAnotherPortIsCountedOnce) {
  EXPECT_GT(CompareAlongTheRun(
                R"pb(
                  topology {
                    link_class { name: "su" rate_gbps: 400 delay_ns: 150 }
                    fat_tree { k: 4 }
                    scale_up { domain_size: 4 switches_per_domain: 2 link_class: "su" }
                    failure {
                      at_ns: 0
                      link { a: "h0" b: "su0" }
                    }
                  }
                  traffic {
                    flow_list {
                      flow { src_host: 0 dst_host: 1 message_bytes: 1048576 start_ns: 10000 }
                      flow { src_host: 0 dst_host: 2 message_bytes: 1048576 start_ns: 10000 }
                      flow { src_host: 0 dst_host: 3 message_bytes: 1048576 start_ns: 10000 }
                    }
                  }
                )pb",
                64),
            0);
}

// Every host sends while a host link flaps: messages to and from h0 are given up at one
// reconvergence or another, possibly after their last bytes left, the rest complete.
TEST(MessageCountsTest, FlappingLinksKeepTheCountsExact) {
  EXPECT_GT(CompareAlongTheRun(R"pb(
                                 topology {
                                   fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 }
                                   failure {
                                     at_ns: 12000
                                     link { a: "h0" b: "edge0" }
                                     flap { down_ns: 2000 period_ns: 9000 count: 10 }
                                   }
                                   routing { reconverge_delay_ns: 1000 }
                                 }
                                 nic { transport { retransmit_timeout_ns: 100000 } }
                                 traffic { permutation { message_bytes: 262144 } }
                                 run { seed: 5 }
                               )pb",
                               256),
            0);
}

}  // namespace
}  // namespace fe::control
