// 8:1 incast through a k = 4 fat-tree, lossy and lossless: what the shared buffer, PFC and the
// NICs' loss recovery must conserve, and how busy PFC keeps the bottleneck.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "dataplane/fabric.h"
#include "topology/fat_tree.h"
#include "topology/routes.h"

namespace fe::dp {
namespace {

const Rate kRate = Rate::FromGbps(100);
const Time kDelay = Time::FromNs(1000);
constexpr uint32_t kMtu = 4096;
constexpr uint64_t kMessageBytes = 256 * 1024;
constexpr uint32_t kReceiver = 0;

struct World {
  topo::Graph graph;
  topo::RouteTable routes;
  Scheduler sched;
  std::unique_ptr<Fabric> fabric;
};

// Runs the incast of kMessageBytes from each of hosts 4..11 to host 0, with `extra` messages
// alongside; incast messages come first in the message table.
std::unique_ptr<World> RunIncast(const SwitchParams& sw, std::vector<MessageSpec> extra = {},
                                 uint64_t incast_bytes = kMessageBytes) {
  auto w = std::make_unique<World>();
  auto g = topo::BuildFatTree(topo::FatTreeParams{4, kRate, kDelay});
  EXPECT_TRUE(g.ok());
  w->graph = std::move(g).value();
  w->routes = topo::RouteTable::Build(w->graph);
  FabricParams p;
  p.nic.mtu_payload_bytes = kMtu;
  p.switch_params = sw;
  p.mbuf_pool_size = 8191;
  auto f = Fabric::Create(w->graph, w->routes, p, &w->sched);
  EXPECT_TRUE(f.ok()) << f.status().message();
  w->fabric = std::move(f).value();
  // Hosts 4..11 (pods 1 and 2) to host 0 (pod 0): every path crosses the core and meets at host
  // 0's edge switch, which receives on two uplinks and sends on one 100 Gb/s port.
  std::vector<MessageSpec> specs;
  for (uint32_t s = 4; s < 12; ++s) specs.push_back({s, kReceiver, incast_bytes, Time::Zero(), 26});
  specs.insert(specs.end(), extra.begin(), extra.end());
  EXPECT_TRUE(w->fabric->AddMessages(specs).ok());
  w->sched.RunUntil(Time::Infinite());
  return w;
}

uint64_t SwitchDrops(const Fabric& f) {
  uint64_t n = 0;
  for (size_t i = 0; i < f.num_switches(); ++i)
    n += f.switch_at(i).counters().drops.total_packets();
  return n;
}

TEST(IncastTest, LossyConservesEveryPacketAndRecoversTheDrops) {
  SwitchParams sw;
  sw.pfc_enabled = false;
  sw.buffer.total_bytes = 256 * 1024;
  auto w = RunIncast(sw);
  Fabric& f = *w->fabric;
  uint64_t data_sent = 0, data_received = 0, control_sent = 0, control_received = 0;
  for (uint32_t h = 0; h < w->graph.num_hosts(); ++h) {
    const NicCounters& c = f.nic(h).counters();
    data_sent += c.data_packets_sent;
    data_received += c.data_packets_received;
    control_sent += c.acks_sent + c.naks_sent + c.cnps_sent;
    control_received += c.acks_received + c.naks_received + c.cnps_received;
  }
  const uint64_t drops = SwitchDrops(f);
  // 8 x 256 KiB arrive at up to 200 Gb/s into one 100 Gb/s port whose queue may hold
  // alpha/(1+alpha) of the 256 KiB pool: it must overflow.
  RecordProperty("drops", static_cast<int>(drops));
  EXPECT_GT(drops, 0u);
  // The reverse path is idle enough that no ACK, NAK or CNP is lost; then every data packet a
  // NIC sent was either received by a NIC or dropped by a switch, exactly.
  EXPECT_EQ(control_sent, control_received);
  EXPECT_EQ(data_sent, data_received + drops);
  // Go-back-N recovers everything.
  EXPECT_EQ(f.messages_delivered(), 8u);
  EXPECT_EQ(f.Totals().nics.payload_bytes_received, 8 * kMessageBytes);
  EXPECT_EQ(f.mbufs_in_use(), 0u);
}

TEST(IncastTest, LosslessDropsNothingAndKeepsTheReceiverLinkBusy) {
  SwitchParams sw;
  sw.buffer.total_bytes = 1024 * 1024;
  constexpr int64_t kXoffBytes = 64 * 1024;
  sw.buffer.priorities[3].pfc.xoff_bytes = kXoffBytes;
  // Headroom from the Cisco/NVIDIA formula (docs/switch-buffers.md), worked by hand: 3 frames of
  // 4096 + 62 header/ICRC/FCS bytes = 12,474; the pause frame 84; the cable twice, 1 us at
  // 100 Gb/s = 12,500 bytes each way; 60 quanta of response = 3840. Total 41,398.
  constexpr int64_t kHeadroomBytes = 3 * 4158 + 84 + 2 * 12500 + 3840;
  sw.headroom_bytes = kHeadroomBytes;
  auto w = RunIncast(sw);
  Fabric& f = *w->fabric;

  EXPECT_EQ(SwitchDrops(f), 0u);
  EXPECT_EQ(f.messages_delivered(), 8u);
  for (const ReceiverState& m : f.messages().receiver) EXPECT_EQ(m.bytes_delivered, kMessageBytes);
  uint64_t retransmitted = 0;
  for (uint32_t h = 0; h < w->graph.num_hosts(); ++h) {
    retransmitted += f.nic(h).counters().retransmitted_packets;
  }
  EXPECT_EQ(retransmitted, 0u);

  uint64_t pauses = 0, marks = 0, ce_received = 0;
  for (uint32_t h = 0; h < w->graph.num_hosts(); ++h) {
    ce_received += f.nic(h).counters().ce_marked_received;
  }
  for (size_t i = 0; i < f.num_switches(); ++i) {
    const Switch& s = f.switch_at(i);
    for (uint16_t p = 0; p < s.num_ports(); ++p) {
      marks += s.queue_counters(p, 3).ecn_marks;
      pauses += s.queue_counters(p, 3).pause_frames_sent;
      // Ingress use of a lossless PG is bounded by XOFF + headroom (reserve 0).
      EXPECT_LE(s.buffer().pg(p, 3).peak_bytes, kXoffBytes + kHeadroomBytes);
    }
  }
  RecordProperty("pause_frames_sent", static_cast<int>(pauses));
  EXPECT_GT(pauses, 0u);
  // Nothing is lost, so every packet a switch turned CE reaches a NIC that reads CE in the real
  // IPv4 header: the marks and the CE packets received are the same count.
  RecordProperty("ecn_marks", static_cast<int>(marks));
  EXPECT_GT(marks, 0u);
  EXPECT_EQ(marks, ce_received);

  // The receiver's link is busy from the first frame's arrival at its edge switch to the last
  // frame's departure. The first frame arrives uncontended after 5 hops of (serialisation of
  // 4178 wire bytes at 80 ps each + 1 us); the last leaves one propagation delay before delivery.
  const topo::PortRef edge = w->graph.Peer(topo::PortRef{w->graph.hosts()[kReceiver], 0});
  const EgressPort& down = f.port(edge.node, edge.port);
  Time last_delivery;
  for (const ReceiverState& m : f.messages().receiver)
    last_delivery = std::max(last_delivery, m.delivered_at);
  const Time first_arrival = (Time::FromPs(4178 * 80) + kDelay) * 5;
  const double busy = static_cast<double>(down.counters().busy_time.ps()) /
                      static_cast<double>((last_delivery - kDelay - first_arrival).ps());
  RecordProperty("receiver_link_busy_ppm", static_cast<int>(busy * 1e6));
  EXPECT_GE(busy, 0.98);
  EXPECT_LE(busy, 1.0);
  EXPECT_EQ(f.mbufs_in_use(), 0u);
}

// Congestion spreading: a victim from host 4 (an incast sender) to host 5 on the same edge
// switch shares only host 4's uplink with the incast. Alone it would take the store-and-forward
// time of 1 MiB over two hops; next to host 4's incast message, the NIC alternates packets of the
// two, so a fair uplink gives it half the line rate: its FCT is at most about twice the alone
// time. With PFC the edge switch pauses host 4 (its ingress group fills with incast packets
// waiting for the paused uplinks), and the victim waits with them: head-of-line blocking.
Time VictimFct(bool pfc) {
  constexpr uint64_t kVictimBytes = 1024 * 1024;
  SwitchParams sw;
  sw.pfc_enabled = pfc;
  sw.buffer.total_bytes = 1024 * 1024;
  sw.buffer.priorities[3].pfc.xoff_bytes = 64 * 1024;
  auto w = RunIncast(sw, {{4, 5, kVictimBytes, Time::Zero(), 26}}, 1024 * 1024);
  EXPECT_EQ(w->fabric->messages_delivered(), 9u);
  EXPECT_EQ(w->fabric->messages().spec(8).dst_host, 5u);
  return w->fabric->messages().receiver[8].delivered_at;
}

TEST(IncastTest, PfcSpreadsCongestionToAVictimThatLossyDoesNot) {
  // 1 MiB alone over two 100 Gb/s hops of 1 us: 256 packets of 4178 wire bytes at 80 ps each,
  // one more serialisation on the second hop, two propagation delays.
  const Time alone = Time::FromPs(257 * 4178 * 80) + kDelay * 2;
  const Time lossy = VictimFct(false);
  const Time lossless = VictimFct(true);
  const double lossy_slowdown = static_cast<double>(lossy.ps()) / static_cast<double>(alone.ps());
  const double pfc_slowdown = static_cast<double>(lossless.ps()) / static_cast<double>(alone.ps());
  RecordProperty("victim_slowdown_lossy_milli", static_cast<int>(lossy_slowdown * 1000));
  RecordProperty("victim_slowdown_pfc_milli", static_cast<int>(pfc_slowdown * 1000));
  // Lossy: half the uplink, so 2x, with 5% for the packets the two messages do not overlap on.
  EXPECT_LE(lossy_slowdown, 2.1);
  // PFC: host 4's uplink runs at the pace of the incast's drain, far below half the line rate.
  EXPECT_GE(pfc_slowdown, 3.0);
}

}  // namespace
}  // namespace fe::dp
