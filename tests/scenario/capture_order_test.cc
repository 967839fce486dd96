// A capture is an observer: adding one must not change a run. The run goes in windows, node
// after node, so frames reach the writer out of time order within a window; the file must still
// list them in time order, each frame the captured ports sent exactly once. Read back here block
// by block as the pcapng specification lays them out (draft-ietf-opsawg-pcapng, section 4.3),
// independently of the writer.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "control/run/software_run.h"
#include "control/scenario/scenario_loader.h"

namespace fe::control {
namespace {

// HPCC on a k = 4 permutation: many frames of different nodes fall on the same picosecond, where
// a capture that changed the order of events would show.
constexpr char kScenario[] = R"pb(
  name: "capture_order"
  topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }
  nic { cc { hpcc {} } }
  traffic { permutation { message_bytes: 500000 } }
  run { seed: 3 progress: false }
)pb";
constexpr char kCapture[] = R"pb(
  capture {
    port { host: 0 }
    port { host: 5 }
    port { host: 10 }
    port { host: 15 }
    file: "order.pcapng"
  }
)pb";
constexpr uint32_t kCapturedHosts[] = {0, 5, 10, 15};

struct Packet {
  uint32_t interface;
  uint64_t ts_ns;
};

std::vector<Packet> ReadEnhancedPackets(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<uint8_t> b((std::istreambuf_iterator<char>(in)), {});
  const auto u32 = [&](size_t at) {
    uint32_t v;
    std::memcpy(&v, b.data() + at, 4);
    return v;
  };
  std::vector<Packet> out;
  for (size_t at = 0; at + 12 <= b.size();) {
    const uint32_t type = u32(at), length = u32(at + 4);
    if (length < 12 || at + length > b.size()) {
      ADD_FAILURE() << "bad block at byte " << at;
      break;
    }
    if (type == 6) {  // Enhanced Packet Block
      out.push_back({u32(at + 8), (uint64_t{u32(at + 12)} << 32) | u32(at + 16)});
    }
    at += length;
  }
  return out;
}

StatusOr<SoftwareRunResult> RunScenario(const std::string& text, const std::string& out_dir) {
  auto scenario = LoadScenarioText(text, "capture_order.textproto");
  if (!scenario.ok()) return scenario.status();
  SoftwareRunOptions options;
  options.seed = scenario->run().seed();
  options.out_dir = out_dir;
  return RunSoftware(*scenario, options);
}

TEST(CaptureOrderTest, ACaptureChangesNoResultAndListsFramesInTimeOrder) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("fe_capture_order_" + std::to_string(getpid())))
          .string();
  std::filesystem::create_directories(dir);
  auto plain = RunScenario(kScenario, dir);
  auto captured = RunScenario(std::string(kScenario) + kCapture, dir);
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  ASSERT_TRUE(captured.ok()) << captured.status().message();
  const std::vector<Packet> packets = ReadEnhancedPackets(dir + "/order.pcapng");
  std::filesystem::remove_all(dir);

  // The same run, to the picosecond: every message's completion and every port's count.
  const dp::Fabric& a = *plain->emulation->fabric;
  const dp::Fabric& b = *captured->emulation->fabric;
  ASSERT_EQ(a.messages().size(), b.messages().size());
  for (size_t i = 0; i < a.messages().size(); ++i) {
    ASSERT_TRUE(a.messages().completed(i));
    EXPECT_EQ(a.messages().sender[i].completed_at, b.messages().sender[i].completed_at)
        << "message " << i;
  }
  EXPECT_EQ(a.Totals().packet_hops, b.Totals().packet_hops);
  EXPECT_EQ(plain->events, captured->events);

  // Every frame the four NICs sent, once, in time order.
  uint64_t sent = 0;
  for (uint32_t h : kCapturedHosts) sent += b.port(b.graph().hosts()[h], 0).tx_packets();
  EXPECT_EQ(packets.size(), sent);
  ASSERT_GT(packets.size(), 500u);
  for (size_t i = 1; i < packets.size(); ++i) {
    ASSERT_LE(packets[i - 1].ts_ns, packets[i].ts_ns) << "frame " << i;
  }
}

}  // namespace
}  // namespace fe::control
