// CNPs and RC data as a dissector independent of this project reads them: an 8:1 incast under
// DCQCN with a low WRED band, the receiver's host port (its ACKs and CNPs) and the edge port
// towards it (the data) captured to pcapng by the scenario, then read back by tshark. The CNP
// counts are checked against the NICs' counters, the frame fields against the RoCEv2 annex
// (A17.9: BTH opcode 0x81 to the sender's QP) and the NVIDIA CNP class (DSCP 48), and the data
// against the RC rules (SEND First/Middle/Last, PSNs consecutive from 0).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "control/run/software_run.h"
#include "control/scenario/scenario_loader.h"
#include "dataplane/message.h"
#include "tshark_fields.h"

namespace fe::control {
namespace {

constexpr char kScenario[] = R"pb(
  name: "cnp_capture"
  topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }
  switch {
    queue {
      priority: 3
      wred { kmin_bytes: 5000 kmax_bytes: 20000 pmax: 0.2 }
    }
  }
  nic {
    cnp_interval_ns: 4000
    cc { dcqcn { preset: NVIDIA } }
  }
  traffic { incast { senders: 8 receiver_host: 0 message_bytes: 262144 } }
  run { seed: 5 progress: false }
  capture {
    port { host: 0 }
    port { switch_port { tier: EDGE index: 0 port: 0 } }
    file: "cnp.pcapng"
  }
)pb";

constexpr uint32_t kPacketsPerMessage = 262144 / 4096;
// IBA table 38: RC SEND First, Middle, Last; the RoCEv2 annex A17.9.3: CNP.
constexpr char kSendFirst[] = "0", kSendMiddle[] = "1", kSendLast[] = "2", kCnp[] = "129";

TEST(CnpCaptureTest, TsharkReadsCnpsAndRcSendsWithConsecutivePsns) {
  if (!fe::testing::TsharkAvailable()) {
    GTEST_SKIP() << "tshark is not installed (scripts/install-deps.sh installs it)";
  }
  auto scenario = LoadScenarioText(kScenario, "cnp_capture.textproto");
  ASSERT_TRUE(scenario.ok()) << scenario.status().message();
  SoftwareRunOptions options;
  options.seed = scenario->run().seed();
  options.out_dir =
      (std::filesystem::temp_directory_path() / ("fe_cnp_capture_" + std::to_string(getpid())))
          .string();
  std::filesystem::create_directories(options.out_dir);
  auto run = RunSoftware(*scenario, options);
  ASSERT_TRUE(run.ok()) << run.status().message();
  const dp::Fabric& fabric = *run->emulation->fabric;
  const dp::NicCounters& receiver = run->emulation->fabric->nic(0).counters();
  ASSERT_EQ(fabric.messages_delivered(), 8u);
  // The low band must have made the receiver throttle someone, or there is nothing to read.
  ASSERT_GT(receiver.cnps_sent, 0u);

  const std::string file = options.out_dir + "/cnp.pcapng";
  const auto rows = fe::testing::TsharkFields(
      file, {"frame.interface_id", "udp.dstport", "ip.dsfield.dscp", "infiniband.bth.opcode",
             "infiniband.bth.destqp", "infiniband.bth.psn"});
  // Debian 12's tshark (4.0) knows no name for the CNP opcode: its tree shows the number.
  const uint64_t unknown_129 = fe::testing::TsharkVerboseLinesWith(file, "Opcode: Unknown (129)");
  std::filesystem::remove_all(options.out_dir);
  ASSERT_FALSE(rows.empty()) << "tshark read nothing from " << file;

  // Interface 0 is host 0's port: every CNP the receiver sent, to the QP that was throttled.
  std::map<uint32_t, uint64_t> cnps_by_qp;
  uint64_t cnps = 0;
  // Interface 1 is the edge port to host 0: every data packet of the incast.
  std::map<uint32_t, std::vector<std::pair<uint32_t, std::string>>> data_by_qp;
  for (const auto& r : rows) {
    if (r[3] == kCnp) {
      ++cnps;
      EXPECT_EQ(r[0], "0");
      EXPECT_EQ(r[1], "4791");  // RoCEv2's UDP port
      EXPECT_EQ(r[2], "48");
      ++cnps_by_qp[static_cast<uint32_t>(std::stoul(r[4], nullptr, 0))];
    } else if (r[0] == "1" && (r[3] == kSendFirst || r[3] == kSendMiddle || r[3] == kSendLast)) {
      EXPECT_EQ(r[1], "4791");
      EXPECT_EQ(r[2], "26");
      data_by_qp[static_cast<uint32_t>(std::stoul(r[4], nullptr, 0))].emplace_back(
          static_cast<uint32_t>(std::stoul(r[5])), r[3]);
    }
  }
  EXPECT_EQ(cnps, receiver.cnps_sent);
  EXPECT_EQ(unknown_129, cnps);
  // Each CNP names the sender's QP of the message whose packets were marked: per QP, the CNPs
  // on the wire are those the sending side counted for that message.
  uint64_t throttled = 0;
  for (uint32_t id = 0; id < fabric.messages().size(); ++id) {
    const dp::SenderState& m = fabric.messages().sender[id];
    const auto it = cnps_by_qp.find(dp::QpnOf(id));
    EXPECT_EQ(it == cnps_by_qp.end() ? 0 : it->second, m.cnps_received) << "message " << id;
    throttled += m.cnps_received > 0 ? 1 : 0;
  }
  EXPECT_GT(throttled, 1u);

  // Lossless class, no drops: each QP's packets pass once, PSN 0 .. 63 in order, as SEND First,
  // then Middle, then Last.
  ASSERT_EQ(data_by_qp.size(), 8u);
  for (const auto& [qpn, packets] : data_by_qp) {
    ASSERT_EQ(packets.size(), kPacketsPerMessage) << "QP " << qpn;
    for (uint32_t i = 0; i < packets.size(); ++i) {
      EXPECT_EQ(packets[i].first, i) << "QP " << qpn;
      const char* want = i == 0 ? kSendFirst : i + 1 == packets.size() ? kSendLast : kSendMiddle;
      EXPECT_EQ(packets[i].second, want) << "QP " << qpn << " PSN " << i;
    }
  }
}

}  // namespace
}  // namespace fe::control
