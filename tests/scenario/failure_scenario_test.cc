// Failures a scenario schedules, run end to end: a scale-up message rerouted around a dead
// link, and a link that flaps without end. failure_test.cc covers the injector's accounting.
#include <gtest/gtest.h>

#include <string>

#include "control/emulation/emulation.h"
#include "control/emulation/failure_injector.h"
#include "control/run/software_run.h"
#include "control/scenario/scenario_loader.h"
#include "topology/graph.h"

namespace fe::control {
namespace {

// h0's link to its domain's first scale-up switch, su0, is dead from the start. Of three 1 MiB
// messages to the other endpoints of its domain, ids 0 and 2 are on su0 (port 1 + id mod 2):
// at their start they move to su1, the domain's other switch, and all three complete over h0's
// port 2: 3 x 256 frames of 4,178 wire bytes (4,096 of payload, RoCE headers, preamble and gap)
// leave by it, none by port 1.
TEST(FailureTest, AScaleUpMessageCutOffFromItsSwitchMovesToAnother) {
  auto scenario = LoadScenarioText(
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
      "su.textproto");
  ASSERT_TRUE(scenario.ok()) << scenario.status().message();
  auto run = RunSoftware(*scenario, SoftwareRunOptions{});
  ASSERT_TRUE(run.ok()) << run.status().message();
  Emulation& e = *run->emulation;
  const dp::MessageTable& messages = e.fabric->messages();
  ASSERT_EQ(messages.size(), 3u);
  for (uint32_t id = 0; id < 3; ++id) {
    EXPECT_TRUE(messages.completed(id)) << id;
    EXPECT_FALSE(messages.sender[id].unreachable) << id;
    EXPECT_EQ(messages.info[id].src_port, 2) << id;
  }
  const topo::NodeId h0 = *e.graph.FindNode("h0");
  EXPECT_EQ(e.fabric->port(h0, 1).counters().tx_packets, 0u);
  EXPECT_EQ(e.fabric->port(h0, 2).counters().tx_wire_bytes, 3u * 256 * 4178);
  EXPECT_TRUE(e.failures->Summary().unreachable_flow_ids.empty());
}

// Through the scenario file and the software run: a fabric link and a host link flap forty times
// each while every host sends, with the rate and queue samplers on. The run must end with every
// flow done: completed, or given up when a reconvergence found h0 cut off.
TEST(FailureTest, FlappingNeverHangs) {
  auto scenario = LoadScenarioText(
      R"pb(
        topology {
          fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 }
          failure {
            at_ns: 10000
            link { a: "agg2" b: "core0" }
            flap { down_ns: 3000 period_ns: 7000 count: 40 }
          }
          failure {
            at_ns: 12000
            link { a: "h0" b: "edge0" }
            flap { down_ns: 2000 period_ns: 9000 count: 40 }
          }
          routing { reconverge_delay_ns: 1000 }
        }
        nic { transport { retransmit_timeout_ns: 100000 } }
        traffic { permutation { message_bytes: 1048576 } }
        run { seed: 5 rate_sample_interval_ns: 10000 queue_sample_interval_ns: 10000 }
      )pb",
      "flap.textproto");
  ASSERT_TRUE(scenario.ok()) << scenario.status().message();
  SoftwareRunOptions opt;
  opt.seed = 5;
  auto run = RunSoftware(*scenario, opt);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_FALSE(run->stopped_early);
  Emulation& e = *run->emulation;
  ASSERT_NE(e.failures, nullptr);
  uint64_t unreachable = 0;
  const dp::MessageTable& messages = e.fabric->messages();
  for (uint32_t id = 0; id < messages.size(); ++id) {
    const dp::SenderState& m = messages.sender[id];
    const dp::MessageSpec& spec = messages.spec(id);
    EXPECT_TRUE(m.completed() || m.unreachable);
    if (spec.src_host != 0 && spec.dst_host != 0) {
      EXPECT_TRUE(m.completed()) << spec.src_host << " -> " << spec.dst_host;
    }
    unreachable += m.unreachable;
  }
  const FailureSummary s = e.failures->Summary();
  EXPECT_EQ(s.events.size(), 160u);  // 2 failures x 40 flaps x (down, up)
  for (const FailureEventSummary& ev : s.events) {
    EXPECT_EQ(ev.reroute_at, ev.at + Time::FromNs(1000)) << ev.kind << " " << ev.target;
  }
  EXPECT_EQ(s.unreachable_flow_ids.size(), unreachable);
}

}  // namespace
}  // namespace fe::control
