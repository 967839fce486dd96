#include "control/run/capture.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tshark_fields.h"

namespace fe::control {
namespace {

fabric_emu::Scenario Parse(const char* text) {
  fabric_emu::Scenario s;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &s));
  return s;
}

// The scenario built and run whole with its capture attached (into the temporary directory);
// the writer is detached and still open.
struct CapturedRun {
  std::unique_ptr<Emulation> e;
  std::unique_ptr<dp::PcapngWriter> w;
};
void RunCaptured(const fabric_emu::Scenario& s, CapturedRun* run) {
  auto e = BuildEmulation(s, 1, ".");
  ASSERT_TRUE(e.ok()) << e.status().message();
  auto w = AttachCapture(s, std::filesystem::temp_directory_path().string(), e->get());
  ASSERT_TRUE(w.ok()) << w.status().message();
  ASSERT_NE(*w, nullptr);
  (*e)->sched.RunUntil(Time::Infinite());
  DetachCapture(s, e->get());
  run->e = std::move(*e);
  run->w = std::move(*w);
}

TEST(CaptureTest, SelectedPortsWriteEveryFrameTheySend) {
  const fabric_emu::Scenario s = Parse(R"(
    topology { fat_tree { k: 4 } }
    traffic { flow_list { flow { src_host: 0 dst_host: 1 message_bytes: 40960 } } }
    capture { port { host: 0 } port { switch_port { tier: EDGE index: 0 port: 1 } } file: "c.pcapng" }
  )");
  CapturedRun run;
  ASSERT_NO_FATAL_FAILURE(RunCaptured(s, &run));
  const std::string dir = std::filesystem::temp_directory_path().string();
  // Host 0 sends 10 data packets of 4096 bytes; edge0's port 1 leads to host 1 (hosts take the
  // edge's first ports), so it carries the same 10 packets: 20 frames in all.
  EXPECT_EQ(run.w->packets_written(), 20u);
  EXPECT_TRUE(run.w->Close().ok());
  std::filesystem::remove(dir + "/c.pcapng");
}

TEST(CaptureTest, DirectionsRecordWhatThePortSendsAndReceives) {
  // Host 0 sends 10 data packets to host 1 and gets ACKs back. Host 0's port both ways; edge0's
  // port 0 (towards host 0) receiving only: what host 0 sends, so its frames are the same 10
  // packets; host 1's port sending only: its ACKs.
  const fabric_emu::Scenario s = Parse(R"(
    topology { fat_tree { k: 4 } }
    traffic { flow_list { flow { src_host: 0 dst_host: 1 message_bytes: 40960 } } }
    capture {
      port { host: 0 direction: BOTH }
      port { switch_port { tier: EDGE index: 0 port: 0 } direction: RX }
      port { host: 1 direction: TX }
      file: "dir.pcapng"
    }
  )");
  CapturedRun run;
  ASSERT_NO_FATAL_FAILURE(RunCaptured(s, &run));
  const std::string dir = std::filesystem::temp_directory_path().string();
  ASSERT_TRUE(run.w->Close().ok());
  const topo::NodeId h0 = run.e->graph.hosts()[0];
  const topo::NodeId h1 = run.e->graph.hosts()[1];
  const topo::PortRef edge_down = run.e->graph.Peer({h0, 0});
  const uint64_t sent0 = run.e->fabric->port(h0, 0).counters().tx_packets;
  const uint64_t received0 =
      run.e->fabric->port(edge_down.node, edge_down.port).counters().tx_packets;
  const uint64_t sent1 = run.e->fabric->port(h1, 0).counters().tx_packets;
  ASSERT_EQ(sent0, 10u);
  ASSERT_GT(sent1, 0u);
  if (!testing::TsharkAvailable()) GTEST_SKIP() << "tshark is not installed";
  // epb_flags direction as tshark reads it: 1 inbound, 2 outbound.
  uint64_t count[3][3] = {};
  for (const auto& row : testing::TsharkFields(
           dir + "/dir.pcapng", {"frame.interface_id", "frame.packet_flags_direction"})) {
    const int iface = std::stoi(row[0]);
    const int direction = std::stoi(row[1], nullptr, 0);
    ASSERT_TRUE(iface >= 0 && iface < 3 && direction >= 1 && direction <= 2) << row[0] << row[1];
    ++count[iface][direction];
  }
  EXPECT_EQ(count[0][2], sent0);      // host 0 sent
  EXPECT_EQ(count[0][1], received0);  // host 0 received: what edge0 sent it
  EXPECT_EQ(count[1][1], sent0);      // edge0's port 0 received what host 0 sent
  EXPECT_EQ(count[1][2], 0u);
  EXPECT_EQ(count[2][2], sent1);
  EXPECT_EQ(count[2][1], 0u);
  std::filesystem::remove(dir + "/dir.pcapng");
}

TEST(CaptureTest, UnknownPortIsRefusedWithItsField) {
  const fabric_emu::Scenario s = Parse(R"(
    topology { fat_tree { k: 4 } }
    capture { port { switch_port { tier: CORE index: 0 port: 9 } } }
  )");
  auto e = BuildEmulation(s, 1, ".");
  ASSERT_TRUE(e.ok());
  auto w = AttachCapture(s, std::filesystem::temp_directory_path().string(), e->get());
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().message(), "capture.port[0].switch_port.port: core0 has no port 9");
}

}  // namespace
}  // namespace fe::control
