#include "control/capture.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace fe::control {
namespace {

fabric_emu::Scenario Parse(const char* text) {
  fabric_emu::Scenario s;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &s));
  return s;
}

TEST(CaptureTest, SelectedPortsWriteEveryFrameTheySend) {
  const fabric_emu::Scenario s = Parse(R"(
    topology { fat_tree { k: 4 } }
    traffic { flow_list { flow { src_host: 0 dst_host: 1 message_bytes: 40960 } } }
    capture { port { host: 0 } port { switch_port { tier: EDGE index: 0 port: 1 } } file: "c.pcapng" }
  )");
  auto e = BuildEmulation(s, 1, ".");
  ASSERT_TRUE(e.ok()) << e.status().message();
  const std::string dir = std::filesystem::temp_directory_path().string();
  auto w = AttachCapture(s, dir, e->get());
  ASSERT_TRUE(w.ok()) << w.status().message();
  ASSERT_NE(*w, nullptr);
  (*e)->sched.RunUntil(Time::Infinite());
  DetachCapture(s, e->get());
  // Host 0 sends 10 data packets of 4096 bytes; edge0's port 1 leads to host 1 (hosts take the
  // edge's first ports), so it carries the same 10 packets: 20 frames in all.
  EXPECT_EQ((*w)->packets_written(), 20u);
  EXPECT_TRUE((*w)->Close().ok());
  std::filesystem::remove(dir + "/c.pcapng");
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
