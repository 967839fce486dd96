// The scenario's NIC section reaches the NIC: transport and congestion-control parameters map
// field by field; a lone DCQCN flow runs at line rate, a lone HPCC flow at line rate until its
// first feedback and near eta after; under contention CNPs are paced and every byte arrives.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "control/emulation/emulation.h"
#include "control/run/report_writer.h"
#include "control/run/software_run.h"
#include "control/scenario/nic_params.h"
#include "control/scenario/scenario_loader.h"

namespace fe::control {
namespace {

fabric_emu::Scenario Load(const std::string& text) {
  auto scenario = LoadScenarioText(text, "nic_cc.textproto");
  EXPECT_TRUE(scenario.ok()) << scenario.status().message();
  return *scenario;
}

TEST(NicCcScenarioTest, DcqcnOverridesReplaceSingleFieldsOfThePreset) {
  const fabric_emu::Scenario s = Load(R"pb(
    topology { fat_tree { k: 4 } }
    nic {
      cnp_interval_ns: 4000
      transport { retransmit_timeout_ns: 500000 }
      cc { dcqcn { preset: NVIDIA g: 0.125 min_rate_mbps: 10 } }
    }
    traffic { permutation { message_bytes: 4096 } }
  )pb");
  StatusOr<dp::NicParams> p = BuildNicParams(s.nic());
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->cc, dp::CongestionControl::kDcqcn);
  EXPECT_EQ(p->cnp_pacer.min_interval, Time::FromUs(4));
  EXPECT_EQ(p->retransmit_timeout, Time::FromUs(500));
  EXPECT_EQ(p->dcqcn.g, 0.125);
  EXPECT_EQ(p->dcqcn.min_rate, Rate::FromMbps(10));
  // Every field not overridden is the preset's.
  const cong::DcqcnParams nvidia = cong::DcqcnParams::NvidiaConnectX();
  EXPECT_EQ(p->dcqcn.increase_timer_period, nvidia.increase_timer_period);
  EXPECT_EQ(p->dcqcn.byte_counter_bytes, nvidia.byte_counter_bytes);
  EXPECT_EQ(p->dcqcn.fast_recovery_steps, nvidia.fast_recovery_steps);
  EXPECT_EQ(p->dcqcn.rate_reduce_monitor_period, nvidia.rate_reduce_monitor_period);
}

TEST(NicCcScenarioTest, NvidiaPresetSetsItsNotificationPointUnlessTheIntervalIsGiven) {
  const std::string preset_only = R"pb(
    topology { fat_tree { k: 4 } }
    nic { cc { dcqcn { preset: NVIDIA } } }
  )pb";
  StatusOr<dp::NicParams> p = BuildNicParams(Load(preset_only).nic());
  ASSERT_TRUE(p.ok()) << p.status().message();
  // ConnectX min_time_between_cnps (docs/congestion-control.md, [N2]).
  EXPECT_EQ(p->cnp_pacer.min_interval, cong::CnpPacerParams::NvidiaConnectX().min_interval);
  EXPECT_EQ(p->cnp_pacer.min_interval, Time::FromUs(4));
  // Given explicitly, even at the proto default's value, the field wins over the preset.
  StatusOr<dp::NicParams> given = BuildNicParams(Load(R"pb(
                                                   topology { fat_tree { k: 4 } }
                                                   nic {
                                                     cnp_interval_ns: 50000
                                                     cc { dcqcn { preset: NVIDIA } }
                                                   }
                                                 )pb")
                                                     .nic());
  ASSERT_TRUE(given.ok());
  EXPECT_EQ(given->cnp_pacer.min_interval, Time::FromUs(50));
  // The paper's preset keeps the paper's N.
  StatusOr<dp::NicParams> paper = BuildNicParams(Load(R"pb(
                                                   topology { fat_tree { k: 4 } }
                                                   nic { cc { dcqcn { preset: PAPER } } }
                                                 )pb")
                                                     .nic());
  ASSERT_TRUE(paper.ok());
  EXPECT_EQ(paper->cnp_pacer.min_interval, Time::FromUs(50));
}

TEST(NicCcScenarioTest, DefaultsAreTheDocumentedOnes) {
  StatusOr<dp::NicParams> p = BuildNicParams(fabric_emu::NicConfig());
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->cc, dp::CongestionControl::kNone);
  EXPECT_EQ(p->cnp_pacer.min_interval, Time::FromUs(50));  // SIGCOMM'15 N
  // 4.096 us x 2^14, the InfiniBand local ACK timeout at value 14.
  EXPECT_EQ(p->retransmit_timeout, Time::FromNs(4096LL << 14));
}

TEST(NicCcScenarioTest, HpccFieldsMapOntoTheNic) {
  const fabric_emu::Scenario s = Load(R"pb(
    topology { fat_tree { k: 4 } }
    nic {
      cc { hpcc { eta: 0.9 max_stage: 3 w_ai_bytes: 500 expected_flows: 16 min_rate_mbps: 50 } }
    }
    traffic { permutation { message_bytes: 4096 } }
  )pb");
  StatusOr<dp::NicParams> p = BuildNicParams(s.nic());
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->cc, dp::CongestionControl::kHpcc);
  EXPECT_EQ(p->hpcc.eta, 0.9);
  EXPECT_EQ(p->hpcc.max_stage, 3u);
  EXPECT_EQ(p->hpcc.w_ai_bytes, 500);
  EXPECT_EQ(p->hpcc.expected_flows, 16u);
  EXPECT_EQ(p->hpcc.min_rate, Rate::FromMbps(50));
  // Unset, the paper's values.
  StatusOr<dp::NicParams> d = BuildNicParams(Load(R"pb(
                                               topology { fat_tree { k: 4 } }
                                               nic { cc { hpcc {} } }
                                             )pb")
                                                 .nic());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->hpcc.eta, 0.95);
  EXPECT_EQ(d->hpcc.max_stage, 5u);
}

struct Ran {
  nlohmann::json summary;
  FlowMetrics metrics;
};

Ran RunText(const std::string& text) {
  const fabric_emu::Scenario s = Load(text);
  auto run = RunSoftware(s, SoftwareRunOptions{});
  EXPECT_TRUE(run.ok()) << run.status().message();
  Ran r;
  r.metrics = CollectFlowMetrics(*run->emulation, 4096);
  r.summary = nlohmann::json::parse(SummaryJson(s, 1, *run, r.metrics.Summarize()));
  return r;
}

TEST(NicCcScenarioTest, LoneDcqcnFlowKeepsLineRate) {
  // Nothing contends, so nothing is marked and DCQCN never leaves line rate: the FCT is the
  // store-and-forward value of 8 full packets over 6 links at 100 Gb/s, 1 us each:
  // 4178 wire bytes -> 334.24 ns; 8 x 334.24 + 5 x 334.24 + 6 x 1000 = 10345.12 ns.
  const Ran r = RunText(R"pb(
    topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }
    nic { cc { dcqcn { preset: PAPER } } }
    traffic { flow_list { flow { src_host: 0 dst_host: 15 message_bytes: 32768 } } }
  )pb");
  ASSERT_EQ(r.metrics.SortedRecords().size(), 1u);
  EXPECT_EQ(r.metrics.SortedRecords()[0].fct(), Time::FromPs(10'345'120));
  EXPECT_EQ(r.summary["cnps"]["sent"], 0);
}

// 100 Gb/s, 1 us links; a full packet is 4178 wire bytes, 334.24 ns. Host 0 to host 15 crosses
// 6 links, so HPCC's T = 2 x 6 x (1000 + 334.24) ns = 16,010.88 ns and W_init = B x T = 200,136
// B. The unloaded RTT of a full packet and its 86-byte ACK is 6 x (334.24 + 6.88 + 2 x 1000) ns =
// 14,046.72 ns < T, so a window of W_init never holds a lone flow back.

TEST(NicCcScenarioTest, LoneHpccFlowWithinItsFirstRttIsStoreAndForward) {
  // All 8 packets leave (2.7 us) before the first ACK can return (14 us): no feedback, line rate,
  // so the FCT is exactly the store-and-forward value of the DCQCN test above.
  const Ran r = RunText(R"pb(
    topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }
    nic { cc { hpcc {} } }
    traffic { flow_list { flow { src_host: 0 dst_host: 15 message_bytes: 32768 } } }
  )pb");
  ASSERT_EQ(r.metrics.SortedRecords().size(), 1u);
  EXPECT_EQ(r.metrics.SortedRecords()[0].fct(), Time::FromPs(10'345'120));
}

TEST(NicCcScenarioTest, LongLoneHpccFlowRunsAtEtaOfLineRate) {
  // 4 MiB = 1024 full packets. Store and forward at line rate: (1024 + 5) x 334.24 + 6 x 1000 ns
  // = 349,932.96 ns, a lower bound. HPCC holds the bottleneck (here the sender's own link) near
  // eta = 0.95 from the first RTT on; its once-per-RTT control swings around eta, so the bound
  // allows an average of 0.93 of line rate: the 342,261.76 ns of serialisation at line rate
  // stretched by 1/0.93 - 1. A window that held the flow back would stall it for whole RTTs
  // instead. Measured: 369,284.71 ns, an average of 0.9465.
  const Ran r = RunText(R"pb(
    topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }
    nic { cc { hpcc {} } }
    traffic { flow_list { flow { src_host: 0 dst_host: 15 message_bytes: 4194304 } } }
  )pb");
  ASSERT_EQ(r.metrics.SortedRecords().size(), 1u);
  const Time fct = r.metrics.SortedRecords()[0].fct();
  const Time store_and_forward = Time::FromPs(349'932'960);
  RecordProperty("fct_ps", static_cast<int>(fct.ps()));
  EXPECT_GE(fct, store_and_forward);
  const double serialisation_ps = 1024 * 334'240;
  EXPECT_LE(fct, store_and_forward + Time::FromPs(std::llround(serialisation_ps * (1 / 0.93 - 1))));
}

TEST(NicCcScenarioTest, PermutationUnderDcqcnDeliversEverythingAndPacesCnps) {
  const Ran r = RunText(R"pb(
    topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }
    nic {
      cnp_interval_ns: 50000
      cc { dcqcn { preset: PAPER } }
    }
    traffic { permutation { message_bytes: 1048576 } }
  )pb");
  const nlohmann::json& j = r.summary;
  EXPECT_EQ(j["flows_completed"], 16);
  EXPECT_EQ(j["bytes_delivered"], 16 * 1048576);
  // Conservation: every transmission was delivered, dropped, or discarded by go-back-N.
  EXPECT_EQ(j["bytes_sent"].get<uint64_t>() - j["retransmissions"]["payload_bytes"].get<uint64_t>(),
            16u * 1048576u);
  // Every CNP sent reached its sender (CNPs are never dropped in a lossless class) ...
  EXPECT_EQ(j["cnps"]["sent"], j["cnps"]["received"]);
  uint64_t per_flow = 0;
  for (const FlowRecord& f : r.metrics.SortedRecords()) {
    per_flow += f.cnps_received;
    // ... and the notification point answers at most one mark per 50 us: a flow that lasted
    // fct can have received at most floor(fct / 50 us) + 1 CNPs.
    EXPECT_LE(f.cnps_received, static_cast<uint64_t>(f.fct().ps() / 50'000'000 + 1)) << f.id;
  }
  EXPECT_EQ(j["cnps"]["received"], per_flow);
  EXPECT_EQ(j["mbufs_in_use_at_end"], 0);
}

}  // namespace
}  // namespace fe::control

namespace fe::control {
namespace {

double Jain(const std::vector<double>& x) {
  double sum = 0, sq = 0;
  for (double v : x) {
    sum += v;
    sq += v * v;
  }
  return sum * sum / (static_cast<double>(x.size()) * sq);
}

// Four 20 MB flows from the hosts of pod 1 into host 0's 100 Gb/s port, under the NVIDIA
// preset; `cnp_interval` adds that field to the NIC section when not empty. Returns each flow's
// throughput (bytes / FCT) and the PFC frames the switches sent.
struct FairnessRun {
  std::vector<double> gbps;
  uint64_t pause_frames_sent = 0;
};
FairnessRun RunNvidiaIncast(const std::string& cnp_interval) {
  const Ran r = RunText(R"pb(
                          topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }
                          nic {)pb" +
                        cnp_interval +
                        R"pb(                                                                                        cc { dcqcn { preset: NVIDIA } } }
                                                                                                                     traffic {
      flow_list {
        flow { src_host: 4 dst_host: 0 message_bytes: 20000000 }
        flow { src_host: 5 dst_host: 0 message_bytes: 20000000 }
        flow { src_host: 6 dst_host: 0 message_bytes: 20000000 }
        flow { src_host: 7 dst_host: 0 message_bytes: 20000000 }
      }
    }
  )pb");
  FairnessRun f;
  for (const FlowRecord& rec : r.metrics.SortedRecords()) {
    f.gbps.push_back(20e6 * 8 / static_cast<double>(rec.fct().ps()) * 1e3);
  }
  for (const auto& q : r.summary["switch_queues"]) {
    f.pause_frames_sent += q["pause_frames_sent"].get<uint64_t>();
  }
  EXPECT_EQ(r.summary["bytes_delivered"], 4 * 20000000);
  return f;
}

// The issue's measurement: with the preset alone the notification point kept the paper's 50 us,
// CNPs came twelve times too rarely for the NVIDIA reaction point's 4 us monitor period, the
// bottleneck queue grew to 11 MB with PFC pausing, and the flows split 24.5/24.5/32.5/48.7 Gb/s
// (Jain 0.916, reproduced below with the interval given by hand). The issue's bar for the preset
// alone: Jain >= 0.95 (measured 0.997), and PFC silent (measured: no pause frame).
TEST(NicCcScenarioTest, NvidiaPresetAloneSharesOneBottleneckFairly) {
  const FairnessRun preset = RunNvidiaIncast("");
  ASSERT_EQ(preset.gbps.size(), 4u);
  const double jain = Jain(preset.gbps);
  RecordProperty("jain_ppm", static_cast<int>(jain * 1e6));
  EXPECT_GE(jain, 0.95);
  EXPECT_EQ(preset.pause_frames_sent, 0u);
  // The explicit field wins: the paper's 50 us, given by hand, brings the unfair split back.
  const FairnessRun given = RunNvidiaIncast("cnp_interval_ns: 50000");
  ASSERT_EQ(given.gbps.size(), 4u);
  const double given_jain = Jain(given.gbps);
  RecordProperty("given_50us_jain_ppm", static_cast<int>(given_jain * 1e6));
  EXPECT_LT(given_jain, 0.95);
  EXPECT_GT(given.pause_frames_sent, 0u);
}

}  // namespace
}  // namespace fe::control
