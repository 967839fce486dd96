// The IPv4 TTL across a k = 4 fat-tree: host 0 (pod 0) to host 15 (pod 3) crosses five switches
// (edge, aggregation, core, aggregation, edge), each a router hop that decrements the TTL when
// switch.decrement_ttl is on (RFC 1812 5.3.1) and leaves every byte alone when it is off.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "dataplane/fabric.h"
#include "dataplane/packet.h"
#include "dataplane/packet_pool.h"
#include "ipv4_checksum.h"
#include "topology/fat_tree.h"
#include "topology/routes.h"

namespace fe::dp {
namespace {

using Bytes = std::vector<uint8_t>;

constexpr uint32_t kSrcHost = 0;
constexpr uint32_t kDstHost = 15;
constexpr int kSwitchesOnPath = 5;
constexpr size_t kTtlByte = 14 + 8;        // Ethernet header, then IPv4 byte 8 (RFC 791)
constexpr size_t kChecksumByte = 14 + 10;  // IPv4 bytes 10-11

using testing::Ipv4ChecksumFromScratch;

// A 60-byte UDP frame from host 0 (198.18.0.1) to host 15 (198.18.0.16) with the given TTL,
// written byte by byte from RFC 791 and RFC 768 rather than with the emulator's encoder.
Bytes UdpFrame(uint8_t ttl) {
  Bytes b = {0x02, 0xfe, 0, 0, 0, 15, 0x02, 0xfe, 0, 0, 0, 0, 0x08, 0x00};  // Ethernet, IPv4
  const Bytes ip = {0x45, 0, 0,   46, 0x12, 0x34, 0x40, 0,  ttl, 17,
                    0,    0, 198, 18, 0,    1,    198,  18, 0,   16};  // total length 46
  b.insert(b.end(), ip.begin(), ip.end());
  b.insert(b.end(), {0x9c, 0x40, 0x13, 0x88, 0, 26, 0, 0});  // UDP 40000 -> 5000, length 26
  b.resize(60, 0xab);                                        // 18 payload bytes
  const uint16_t c = Ipv4ChecksumFromScratch(&b[14]);
  b[kChecksumByte] = static_cast<uint8_t>(c >> 8);
  b[kChecksumByte + 1] = static_cast<uint8_t>(c);
  return b;
}

// Stands where host 15's NIC was: keeps every frame the fabric delivers.
struct Sink : PacketReceiver {
  std::vector<Bytes> frames;
  void Receive(uint16_t, rte_mbuf* m) override {
    const auto* p = rte_pktmbuf_mtod(m, const uint8_t*);
    frames.emplace_back(p, p + rte_pktmbuf_data_len(m));
    rte_pktmbuf_free(m);
  }
};

struct World {
  topo::Graph graph;
  topo::RouteTable routes;
  Scheduler sched;
  std::unique_ptr<Fabric> fabric;
  Sink sink;
  Sink back_to_sender;  // stays empty: nothing here sends towards host 0
};

std::unique_ptr<World> MakeWorld(bool decrement_ttl) {
  auto w = std::make_unique<World>();
  auto g = topo::BuildFatTree(topo::FatTreeParams{4, Rate::FromGbps(100), Time::FromNs(1000)});
  EXPECT_TRUE(g.ok()) << g.status().message();
  w->graph = std::move(g).value();
  w->routes = topo::RouteTable::Build(w->graph);
  FabricParams p;
  p.switch_params.decrement_ttl = decrement_ttl;
  p.mbuf_pool_size = kMinMbufPoolSize;
  auto f = Fabric::Create(w->graph, w->routes, p, &w->sched);
  EXPECT_TRUE(f.ok()) << f.status().message();
  w->fabric = std::move(f).value();
  return w;
}

// Sends one frame from host 0 into its edge switch and runs the fabric until it is idle.
void Send(World* w, const Bytes& frame) {
  EgressPort& uplink = w->fabric->AttachExternal(kSrcHost, &w->back_to_sender);
  w->fabric->AttachExternal(kDstHost, &w->sink);
  rte_mbuf* m = AllocPacket(w->fabric->pool());
  ASSERT_NE(m, nullptr);
  std::memcpy(rte_pktmbuf_append(m, static_cast<uint16_t>(frame.size())), frame.data(),
              frame.size());
  ResetMeta(m);
  uplink.Enqueue(m, 0);
  w->sched.RunUntil(Time::Infinite());
}

uint64_t TtlDrops(const DropCounters& d) {
  return d.packets[static_cast<size_t>(DropReason::kTtlExpired)];
}

TEST(TtlTest, OffLeavesEveryByteAsSent) {
  auto w = MakeWorld(false);
  const Bytes sent = UdpFrame(64);
  Send(w.get(), sent);
  ASSERT_EQ(w->sink.frames.size(), 1u);
  EXPECT_EQ(w->sink.frames[0], sent);  // TTL 64 and the checksum as written
  EXPECT_EQ(w->fabric->Totals().packet_hops, 6u);
}

TEST(TtlTest, EachOfTheFiveSwitchesDecrementsOnceAndKeepsTheChecksumValid) {
  auto w = MakeWorld(true);
  const Bytes sent = UdpFrame(64);
  Send(w.get(), sent);
  ASSERT_EQ(w->sink.frames.size(), 1u);
  const Bytes& got = w->sink.frames[0];
  ASSERT_EQ(got.size(), sent.size());
  EXPECT_EQ(got[kTtlByte], 64 - kSwitchesOnPath);
  const uint16_t checksum =
      static_cast<uint16_t>((got[kChecksumByte] << 8) | got[kChecksumByte + 1]);
  EXPECT_EQ(checksum, Ipv4ChecksumFromScratch(&got[14]));
  // Nothing else is rewritten: the switches route on IP and never touch MACs or payload.
  for (size_t i = 0; i < sent.size(); ++i) {
    if (i != kTtlByte && i != kChecksumByte && i != kChecksumByte + 1) {
      EXPECT_EQ(got[i], sent[i]) << "byte " << i;
    }
  }
  for (size_t s = 0; s < w->fabric->num_switches(); ++s) {
    EXPECT_EQ(TtlDrops(w->fabric->switch_at(s).counters().drops), 0u);
  }
}

TEST(TtlTest, FrameSentWithTtl3DiesAtTheThirdSwitchTheCore) {
  auto w = MakeWorld(true);
  const Bytes sent = UdpFrame(3);
  Send(w.get(), sent);
  EXPECT_TRUE(w->sink.frames.empty());
  // Edge and aggregation of pod 0 forward it (TTL 3 -> 2 -> 1); the core gets TTL 1 and drops it.
  int switches_reached = 0;
  for (size_t s = 0; s < w->fabric->num_switches(); ++s) {
    const Switch& sw = w->fabric->switch_at(s);
    const SwitchCounters& c = sw.counters();
    // Every frame a switch takes in is forwarded or dropped (conservation).
    EXPECT_EQ(c.rx_packets, c.forwarded_packets + c.drops.total_packets()) << s;
    if (c.rx_packets == 0) continue;  // off the path
    ++switches_reached;
    EXPECT_EQ(c.rx_packets, 1u) << s;
    const topo::Node& node = w->graph.node(sw.node());
    if (node.tier == 3) {
      EXPECT_EQ(TtlDrops(c.drops), 1u);
      EXPECT_EQ(c.drops.bytes[static_cast<size_t>(DropReason::kTtlExpired)], 64u);  // 60 + FCS
      EXPECT_EQ(c.forwarded_packets, 0u);
    } else {
      EXPECT_EQ(node.pod, 0) << s;
      EXPECT_EQ(c.forwarded_packets, 1u) << s;
    }
  }
  EXPECT_EQ(switches_reached, 3);
  const FabricTotals t = w->fabric->Totals();
  EXPECT_EQ(TtlDrops(t.drops), 1u);
  EXPECT_EQ(t.drops.total_packets(), 1u);
  EXPECT_EQ(t.packet_hops, 3u);  // host-edge, edge-aggregation, aggregation-core
  EXPECT_TRUE(w->back_to_sender.frames.empty());
  EXPECT_EQ(w->fabric->mbufs_in_use(), 0u);
}

// What traceroute's probes meet: a frame sent with TTL t <= 5 dies at the t-th switch of the
// path, whose tiers go 1, 2, 3, 2, 1; with TTL 6 it arrives with TTL 1.
TEST(TtlTest, TtlSweepDropsAtEachHopInPathOrder) {
  const uint8_t tier_of_hop[kSwitchesOnPath] = {1, 2, 3, 2, 1};
  for (int ttl = 1; ttl <= kSwitchesOnPath + 1; ++ttl) {
    auto w = MakeWorld(true);
    Send(w.get(), UdpFrame(static_cast<uint8_t>(ttl)));
    uint64_t drops = 0;
    for (size_t s = 0; s < w->fabric->num_switches(); ++s) {
      const Switch& sw = w->fabric->switch_at(s);
      const uint64_t here = TtlDrops(sw.counters().drops);
      if (here == 0) continue;
      drops += here;
      ASSERT_LE(ttl, kSwitchesOnPath) << "a frame with TTL above the path's hop count died";
      const topo::Node& node = w->graph.node(sw.node());
      EXPECT_EQ(node.tier, tier_of_hop[ttl - 1]) << "TTL " << ttl;
      if (node.tier != 3) {
        EXPECT_EQ(node.pod, ttl <= 2 ? 0 : 3) << "TTL " << ttl;
      }
    }
    EXPECT_EQ(w->fabric->Totals().packet_hops, static_cast<uint64_t>(ttl)) << "TTL " << ttl;
    if (ttl <= kSwitchesOnPath) {
      EXPECT_EQ(drops, 1u) << "TTL " << ttl;
      EXPECT_TRUE(w->sink.frames.empty()) << "TTL " << ttl;
    } else {
      EXPECT_EQ(drops, 0u);
      ASSERT_EQ(w->sink.frames.size(), 1u);
      EXPECT_EQ(w->sink.frames[0][kTtlByte], 1);
    }
    EXPECT_EQ(w->fabric->mbufs_in_use(), 0u) << "TTL " << ttl;
  }
}

}  // namespace
}  // namespace fe::dp
