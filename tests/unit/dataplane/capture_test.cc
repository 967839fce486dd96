// A pcapng capture of a lossless incast, dissected by tshark: the PFC frames must read as 802.1Qbb
// class-based flow control and the data as RoCEv2 with its BTH, at the virtual times they left.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "dataplane/fabric.h"
#include "dataplane/pcapng_writer.h"
#include "topology/fat_tree.h"
#include "topology/routes.h"
#include "tshark_fields.h"

namespace fe::dp {
namespace {

using fe::testing::TsharkFields;

TEST(CaptureTest, TsharkDissectsPfcFramesAndRoceBth) {
  if (!fe::testing::TsharkAvailable()) GTEST_SKIP() << "tshark not installed";
  const Rate rate = Rate::FromGbps(100);
  const Time delay = Time::FromNs(1000);
  auto g = topo::BuildFatTree(topo::FatTreeParams{4, rate, delay});
  ASSERT_TRUE(g.ok());
  const topo::RouteTable routes = topo::RouteTable::Build(*g);
  Scheduler sched;
  FabricParams p;
  p.switch_params.buffer.total_bytes = 1024 * 1024;
  p.switch_params.buffer.priorities[3].pfc.xoff_bytes = 64 * 1024;
  p.mbuf_pool_size = 8191;
  auto f = Fabric::Create(*g, routes, p, &sched);
  ASSERT_TRUE(f.ok()) << f.status().message();
  Fabric& fabric = **f;

  // Every port of host 0's edge switch: interface i is its local port i.
  const topo::PortRef down = g->Peer(topo::PortRef{g->hosts()[0], 0});
  const size_t num_ports = g->node(down.node).links.size();
  std::vector<std::string> names;
  for (size_t i = 0; i < num_ports; ++i)
    names.push_back(g->node(down.node).name + "/" + std::to_string(i));
  const std::string file = (std::filesystem::temp_directory_path() /
                            ("fe_capture_" + std::to_string(getpid()) + ".pcapng"))
                               .string();
  auto w = PcapngWriter::Open(file, names);
  ASSERT_TRUE(w.ok()) << w.status().message();
  for (uint16_t i = 0; i < num_ports; ++i) fabric.port(down.node, i).SetCapture(w->get(), i);

  std::vector<MessageSpec> specs;
  for (uint32_t s = 4; s < 12; ++s) specs.push_back({s, 0, 256 * 1024, Time::Zero(), 26});
  ASSERT_TRUE(fabric.AddMessages(specs).ok());
  sched.RunUntil(Time::Infinite());
  for (uint16_t i = 0; i < num_ports; ++i) fabric.port(down.node, i).SetCapture(nullptr, 0);
  ASSERT_TRUE((*w)->Close().ok());

  uint64_t pfc_sent = 0;
  for (size_t i = 0; i < fabric.num_switches(); ++i) {
    const Switch& s = fabric.switch_at(i);
    if (s.node() != down.node) continue;
    for (uint16_t port = 0; port < s.num_ports(); ++port) {
      pfc_sent += s.queue_counters(port, 3).pause_frames_sent +
                  s.queue_counters(port, 3).resume_frames_sent;
    }
  }
  ASSERT_GT(pfc_sent, 0u);

  const auto rows =
      TsharkFields(file, {"frame.interface_id", "frame.time_epoch", "frame.len", "eth.dst",
                          "macc.opcode", "macc.cbfc.enbv", "macc.cbfc.pause_time.c3",
                          "infiniband.bth.opcode", "infiniband.bth.destqp", "udp.dstport"});
  uint64_t pfc_rows = 0, data_rows_down = 0;
  std::string first_down_time;
  for (const auto& r : rows) {
    if (!r[4].empty()) {
      ++pfc_rows;
      // 802.1Qbb: DA 01:80:c2:00:00:01, opcode 0x0101, class 3 enabled, XOFF 65535 or XON 0.
      EXPECT_EQ(r[3], "01:80:c2:00:00:01");
      EXPECT_EQ(r[4], "0x0101");
      EXPECT_EQ(r[5], "0x0008");
      EXPECT_TRUE(r[6] == "65535" || r[6] == "0") << r[6];
      EXPECT_EQ(r[2], "60");
    } else if (r[0] == std::to_string(down.port) && (r[7] == "0" || r[7] == "1" || r[7] == "2")) {
      // RC SEND First, Middle, Last (IBA table 38: 0, 1, 2)
      if (first_down_time.empty()) first_down_time = r[1];
      ++data_rows_down;
      EXPECT_EQ(r[9], "4791");
      // 14 Eth + 20 IPv4 + 8 UDP + 12 BTH + 4096 payload + 4 ICRC; the FCS is not captured.
      EXPECT_EQ(r[2], "4154");
    }
  }
  EXPECT_EQ(pfc_rows, pfc_sent);
  // 8 messages of 256 KiB in 4096-byte packets: 512 data frames to host 0.
  EXPECT_EQ(data_rows_down, 512u);
  // The first data frame leaves towards host 0 as it arrives, uncontended, over 5 hops of
  // 4178 wire bytes at 80 ps plus 1 us each: 6671.2 ns, written at ns resolution.
  EXPECT_EQ(first_down_time, "0.000006671");
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace fe::dp
