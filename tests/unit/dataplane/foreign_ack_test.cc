// ACKs and NAKs from outside (in real-time mode a real host on the fabric may send any frame) for
// a QP of an emulated message: the sender ignores those no receiver of the QP could have sent
// (an ACK for a PSN never sent, a NAK below what is acknowledged), so the message completes once,
// after its receiver has it, and the fabric goes idle. Found by tests/fuzz/frame_fuzz: a forged
// ACK then a NAK below it kept the retransmission timer firing for ever.
//
// A k = 4 fat-tree; message 0 goes from host 2 to host 3 (16 KiB: four 4096-byte packets, the
// NIC's default MTU); the forged frames enter at host 0's uplink at time 0 and reach host 2 after
// four links (about 4 us), when all four packets are sent (0.35 us each at 100 Gb/s) and before
// the first real ACK (about 5 us).
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

constexpr uint32_t kForger = 0;
constexpr uint32_t kSender = 2;
constexpr uint32_t kReceiver = 3;
constexpr uint64_t kMessageBytes = 16384;
constexpr uint32_t kPackets = 4;  // 16384 / 4096
// Far more than a four-packet message and its ACKs need (tens of events), far fewer than a
// retransmission timer firing for ever runs up.
constexpr uint64_t kMaxEvents = 100000;

// An RC ACK (AETH syndrome 0x1f) or PSN-sequence NAK (0x60) from host 0 to host 2's first QP,
// byte by byte from RFC 791/768 and IBA 9.2 (BTH) and 9.3.2 (AETH).
Bytes ForgedAck(uint32_t psn, uint8_t syndrome) {
  Bytes b = {0x02, 0xfe, 0, 0, 0, kSender, 0x52, 0x54, 0, 0x12, 0x34, 0x56, 0x08, 0x00};
  const uint16_t ip_total = 20 + 8 + 12 + 4 + 4;  // IPv4, UDP, BTH, AETH, ICRC
  const Bytes ip = {0x45, 0, 0,   ip_total, 0, 0, 0x40, 0,  64, 17,
                    0,    0, 198, 18,       0, 1, 198,  18, 0,  kSender + 1};
  b.insert(b.end(), ip.begin(), ip.end());
  const uint16_t c = testing::Ipv4ChecksumFromScratch(&b[14]);
  b[24] = static_cast<uint8_t>(c >> 8);
  b[25] = static_cast<uint8_t>(c);
  b.insert(b.end(), {0xc0, 0x00, 0x12, 0xb7, 0, ip_total - 20, 0, 0});  // UDP 49152 -> 4791
  b.insert(b.end(), {0x11, 0, 0xff, 0xff, 0, 0, 0x01, 0x00,             // ACK, QP 0x100
                     0, static_cast<uint8_t>(psn >> 16), static_cast<uint8_t>(psn >> 8),
                     static_cast<uint8_t>(psn)});
  b.insert(b.end(), {syndrome, 0, 0, 0, 0, 0, 0, 0});  // AETH (MSN 0), ICRC
  return b;
}

struct Discard : PacketReceiver {
  void Receive(uint16_t, rte_mbuf* m) override { rte_pktmbuf_free(m); }
};

struct World {
  topo::Graph graph;
  topo::RouteTable routes;
  Scheduler sched;
  std::unique_ptr<Fabric> fabric;
  Discard forger;
};

// Runs the message with `frames` sent from host 0 at time 0; false if events were still pending
// after kMaxEvents.
bool RunWithForgedFrames(World* w, const std::vector<Bytes>& frames) {
  w->graph =
      topo::BuildFatTree(topo::FatTreeParams{4, Rate::FromGbps(100), Time::FromNs(1000)}).value();
  w->routes = topo::RouteTable::Build(w->graph);
  FabricParams p;
  p.mbuf_pool_size = kMinMbufPoolSize;
  w->fabric = Fabric::Create(w->graph, w->routes, p, &w->sched).value();
  const MessageSpec message{.src_host = kSender,
                            .dst_host = kReceiver,
                            .size_bytes = kMessageBytes,
                            .start = Time::Zero()};
  EXPECT_TRUE(w->fabric->AddMessages({&message, 1}).ok());
  EgressPort& uplink = w->fabric->AttachExternal(kForger, &w->forger);
  for (const Bytes& f : frames) {
    rte_mbuf* m = AllocPacket(w->fabric->pool());
    std::memcpy(rte_pktmbuf_append(m, static_cast<uint16_t>(f.size())), f.data(), f.size());
    ResetMeta(m);
    uplink.Enqueue(m, 0);
  }
  w->sched.RunUntil(Time::Infinite(), kMaxEvents);
  const bool idle = w->sched.empty();
  w->sched.DiscardAll();
  return idle;
}

TEST(ForeignAckTest, NakBelowAForgedAckLeavesNoTimerRunning) {
  World w;
  ASSERT_TRUE(RunWithForgedFrames(&w, {ForgedAck(kPackets - 1, 0x1f), ForgedAck(1, 0x60)}))
      << "the fabric never went idle";
  const NicCounters c = w.fabric->nic(kSender).counters();
  EXPECT_EQ(c.retransmit_timeouts, 0u);
  EXPECT_EQ(c.data_packets_sent, kPackets);  // nothing resent: the fabric lost nothing
  EXPECT_TRUE(w.fabric->messages().receiver[0].delivered());
}

TEST(ForeignAckTest, AckForAPsnNeverSentIsIgnored) {
  World w;
  ASSERT_TRUE(RunWithForgedFrames(&w, {ForgedAck(0xffffff, 0x1f)})) << "the fabric never went idle";
  const SenderState& s = w.fabric->messages().sender[0];
  const ReceiverState& r = w.fabric->messages().receiver[0];
  ASSERT_TRUE(s.completed());
  ASSERT_TRUE(r.delivered());
  // The last ACK leaves the receiver after the last byte arrived: completion cannot come first.
  EXPECT_GT(s.completed_at, r.delivered_at);
  EXPECT_EQ(w.fabric->nic(kSender).counters().acks_received, kPackets);  // one per packet
}

}  // namespace
}  // namespace fe::dp
