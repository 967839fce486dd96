// The NIC's out-of-order mode end to end: a QP sprayed over several source ports by the switches'
// hash ECMP reaches its receiver out of order (paths of different queues), and an out-of-order
// receiver takes it without a single resend, where go-back-N resends; under loss, selective
// repeat resends exactly what was lost. Expectations are conservation laws and the line rate.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "control/run/report_writer.h"
#include "control/run/software_run.h"
#include "scenario_run.h"
#include "traffic/message_outcomes.h"

namespace fe::control {
namespace {

struct Outputs {
  nlohmann::json summary;
  std::string flows;
  double mean_goodput_gbps = 0;  // over the completed flows: size / FCT
};

Outputs RunOoo(const std::string& text, uint64_t seed) {
  fe::testing::ScenarioRun r = fe::testing::RunScenarioText(text, "ooo.textproto", seed);
  const FlowMetrics metrics = CollectFlowMetrics(*r.run.emulation, 4096);
  Outputs o;
  o.summary = nlohmann::json::parse(SummaryJson(r.scenario, seed, r.run, metrics.Summarize()));
  o.flows =
      FlowsCsv(metrics, r.run.emulation->workload, OutcomesOf(r.run.emulation->fabric->messages()));
  double sum = 0;
  int n = 0;
  for (const FlowRecord& f : metrics.SortedRecords()) {
    if (!f.completed) continue;
    sum += static_cast<double>(f.size_bytes) * 8 / static_cast<double>(f.fct().ns());
    ++n;
  }
  o.mean_goodput_gbps = n > 0 ? sum / n : 0;
  return o;
}

// 16 hosts of a k = 4 fat-tree each send 1 MiB, every packet on the next of 16 source ports.
std::string Sprayed(const std::string& delivery) {
  return "topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }\n"
         "nic { transport { delivery: " +
         delivery +
         " entropy { values: 16 } } }\n"
         "traffic { permutation { message_bytes: 1048576 } }\n";
}

constexpr uint64_t kPermutationBytes = 16 * 1048576;
constexpr uint64_t kPermutationPackets = 16 * 256;  // 1 MiB in 4096-byte packets

TEST(OutOfOrderScenarioTest, SprayedQpsArriveReorderedAndNeedNoResend) {
  const Outputs o = RunOoo(Sprayed("OUT_OF_ORDER"), 7);
  const nlohmann::json& j = o.summary;
  // Lossless under PFC: every byte sent once and delivered once.
  EXPECT_EQ(j["drops"]["packets"], 0);
  EXPECT_EQ(j["flows_completed"], 16);
  EXPECT_EQ(j["bytes_sent"], kPermutationBytes);
  EXPECT_EQ(j["bytes_delivered"], kPermutationBytes);
  EXPECT_EQ(j["packets_sent"], kPermutationPackets);
  EXPECT_EQ(j["packets_delivered"], kPermutationPackets);
  EXPECT_EQ(j["mbufs_in_use_at_end"], 0);
  // The paths' queues differ, so packets overtake each other; nothing is lost, so nothing is
  // resent and no timeout fires.
  EXPECT_GT(j["reordered_packets"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["retransmissions"]["packets"], 0);
  EXPECT_EQ(j["retransmissions"]["timeouts"], 0);
  EXPECT_EQ(j["retransmissions"]["discarded_packets"], 0);
}

TEST(OutOfOrderScenarioTest, GoBackNOnTheSameSprayResends) {
  const Outputs o = RunOoo(Sprayed("IN_ORDER"), 7);
  const nlohmann::json& j = o.summary;
  EXPECT_EQ(j["drops"]["packets"], 0);
  EXPECT_EQ(j["flows_completed"], 16);
  EXPECT_EQ(j["bytes_delivered"], kPermutationBytes);
  // Each packet past a gap is discarded and sent again: reordering alone costs resends.
  EXPECT_GT(j["reordered_packets"].get<uint64_t>(), 0u);
  EXPECT_GT(j["retransmissions"]["packets"].get<uint64_t>(), 0u);
  // Conservation: sent = the messages' packets + those discarded (nothing dropped).
  EXPECT_EQ(j["packets_sent"].get<uint64_t>(),
            kPermutationPackets + j["retransmissions"]["discarded_packets"].get<uint64_t>());
}

TEST(OutOfOrderScenarioTest, SameSeedGivesTheSameFlows) {
  const Outputs a = RunOoo(Sprayed("OUT_OF_ORDER"), 7);
  const Outputs b = RunOoo(Sprayed("OUT_OF_ORDER"), 7);
  EXPECT_EQ(a.flows, b.flows);
  EXPECT_EQ(a.summary["reordered_packets"], b.summary["reordered_packets"]);
}

// 8:1 incast into a 256 KiB buffer without PFC drops data at the receiver's edge port, while the
// ACKs flow the other way through empty queues. Every resend then answers one drop: selective
// repeat resends a PSN only once its deadline (set after it was sent) passes without an ACK
// or SACK of it.
std::string Incast(int sack_resend_threshold) {
  return R"pb(
           topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }
           nic { transport { delivery: OUT_OF_ORDER retransmit_timeout_ns: 200000
                             sack_resend_threshold_packets:)pb" +
         std::to_string(sack_resend_threshold) + R"pb(
    }
    }
               switch {
                 buffer_bytes: 262144
                 pfc { enabled: false }
               }
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
             )pb";
}

void ExpectEveryResendAnswersOneDrop(const nlohmann::json& j) {
  const uint64_t drops = j["drops"]["packets"].get<uint64_t>();
  EXPECT_GT(drops, 0u);
  EXPECT_EQ(j["drops"]["by_reason"]["queue_limit"].get<uint64_t>(), drops);
  EXPECT_EQ(j["retransmissions"]["packets"].get<uint64_t>(), drops);
  // Nothing arrived twice, and every packet past a gap was kept.
  EXPECT_EQ(j["retransmissions"]["discarded_packets"], 0);
  EXPECT_EQ(j["flows_completed"], 8);
  EXPECT_EQ(j["packets_delivered"], 8 * 64);
  EXPECT_EQ(j["packets_sent"].get<uint64_t>(), 8 * 64 + drops);
  EXPECT_EQ(j["bytes_delivered"], 8 * 262144);
  EXPECT_EQ(j["mbufs_in_use_at_end"], 0);
}

TEST(OutOfOrderScenarioTest, SelectiveRepeatResendsExactlyWhatWasDropped) {
  const Outputs o = RunOoo(Incast(0), 3);
  ExpectEveryResendAnswersOneDrop(o.summary);
  EXPECT_EQ(o.summary["retransmissions"]["fast"], 0);
}

// Frames lost at random on the links (a bit error rate of 2e-7: 0.7% of data frames, 0.015% of
// ACKs) between two hosts on one switch: a PSN past a hole means the hole was lost, and with a
// threshold of 3 the sender resends it once three PSNs past it are SACKed, instead of waiting
// out the timeout. Conservation: every resend answers one lost data frame (nothing arrives
// twice), so sent - delivered = resent; fast resends replace timeouts, and the message ends
// sooner.
std::string Lossy(int sack_resend_threshold) {
  return R"pb(
           topology {
             link_class { name: "lossy" rate_gbps: 100 delay_ns: 1000 bit_error_rate: 2e-7 }
             graph {
               node { name: "h0" host: true }
               node { name: "h1" host: true }
               node { name: "sw" tier: 1 }
               link { a: "h0" b: "sw" link_class: "lossy" }
               link { a: "h1" b: "sw" link_class: "lossy" }
             }
           }
           nic { transport { delivery: OUT_OF_ORDER retransmit_timeout_ns: 100000
                             sack_resend_threshold_packets:)pb" +
         std::to_string(sack_resend_threshold) + R"pb(
    }
    }
           traffic { flow_list { flow { src_host: 0 dst_host: 1 message_bytes: 4194304 } } }
         )pb";
}

TEST(OutOfOrderScenarioTest, FastResendAnswersLossesWithoutTheTimeout) {
  const Outputs slow = RunOoo(Lossy(0), 3);
  const Outputs fast = RunOoo(Lossy(3), 3);
  for (const nlohmann::json* j : {&slow.summary, &fast.summary}) {
    EXPECT_EQ((*j)["flows_completed"], 1);
    EXPECT_EQ((*j)["packets_delivered"], 1024);
    EXPECT_EQ((*j)["retransmissions"]["discarded_packets"], 0);
    const uint64_t lost = (*j)["packets_sent"].get<uint64_t>() - 1024;
    EXPECT_GT(lost, 0u);
    EXPECT_EQ((*j)["retransmissions"]["packets"].get<uint64_t>(), lost);
    EXPECT_LE(lost, (*j)["drops"]["by_reason"]["bit_error"].get<uint64_t>());
  }
  EXPECT_EQ(slow.summary["retransmissions"]["fast"], 0);
  EXPECT_GT(fast.summary["retransmissions"]["fast"].get<uint64_t>(), 0u);
  EXPECT_LT(fast.summary["retransmissions"]["timeouts"].get<uint64_t>(),
            slow.summary["retransmissions"]["timeouts"].get<uint64_t>());
  EXPECT_LT(fast.summary["jobs"][0]["last_delivery_ns"].get<double>(),
            slow.summary["jobs"][0]["last_delivery_ns"].get<double>());
}

// A permutation of 2 MB messages over a k = 8 fat-tree (full bisection: 100 Gb/s for every host
// through the core). With one source port per QP, hash ECMP puts several QPs on one uplink and
// the mean goodput stays below 0.8 of the line rate; sprayed per packet over 256 ports, each QP
// spreads over every path and the mean goodput passes 0.8, with nothing lost or resent. (Spraying
// by the NICs' ports alone stops short of 0.9: each packet's path is a fresh draw of the hash, so
// over one message the paths carry unequal byte counts, and the fullest sets the finish.)
std::string Permutation(int entropy_values) {
  return R"pb(
           topology { fat_tree { k: 8 link_rate_gbps: 100 link_delay_ns: 1000 } }
           nic { transport { delivery: OUT_OF_ORDER
                             entropy { values:)pb" +
         std::to_string(entropy_values) + R"pb(}
                                               } }
    traffic { permutation { message_bytes: 2097152 } }
  )pb";
}

TEST(OutOfOrderScenarioTest, SprayedPermutationBeatsHashCollisions) {
  const Outputs hashed = RunOoo(Permutation(1), 5);
  EXPECT_EQ(hashed.summary["flows_completed"], 128);
  EXPECT_LT(hashed.mean_goodput_gbps, 0.8 * 100) << hashed.mean_goodput_gbps;
  const Outputs o = RunOoo(Permutation(256), 5);
  const nlohmann::json& j = o.summary;
  EXPECT_EQ(j["flows_completed"], 128);
  EXPECT_EQ(j["drops"]["packets"], 0);
  EXPECT_EQ(j["bytes_delivered"], uint64_t{128} * 2097152);
  EXPECT_EQ(j["retransmissions"]["packets"], 0);
  EXPECT_GE(o.mean_goodput_gbps, 0.8 * 100) << o.mean_goodput_gbps;
}

}  // namespace
}  // namespace fe::control
