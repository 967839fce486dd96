#include "dataplane/realtime/external_host.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "congestion/dscp_map.h"
#include "core/scheduler.h"
#include "dataplane/egress_port.h"
#include "dataplane/packet.h"
#include "test_pool.h"

namespace fe::dp {
namespace {

using Bytes = std::vector<uint8_t>;

// Frames are written byte by byte from the specifications (RFC 826 ARP, RFC 791 IPv4, RFC 768
// UDP, IBA BTH), not with the emulator's own encoder.
constexpr uint8_t kHostMac[6] = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};  // the real host's NIC
constexpr uint32_t kNumHosts = 16;
constexpr uint32_t kHost = 0;  // 198.18.0.1

void Put16(Bytes* b, uint16_t v) {
  b->push_back(static_cast<uint8_t>(v >> 8));
  b->push_back(static_cast<uint8_t>(v));
}
void PutMac(Bytes* b, const uint8_t* mac) { b->insert(b->end(), mac, mac + 6); }
void PutIp(Bytes* b, uint8_t a, uint8_t c, uint8_t d, uint8_t e) {
  b->insert(b->end(), {a, c, d, e});
}

Bytes ArpRequest(uint8_t target_last_octet) {
  Bytes b;
  PutMac(&b, std::vector<uint8_t>(6, 0xff).data());
  PutMac(&b, kHostMac);
  Put16(&b, 0x0806);
  Put16(&b, 1);       // hardware: Ethernet
  Put16(&b, 0x0800);  // protocol: IPv4
  b.push_back(6);
  b.push_back(4);
  Put16(&b, 1);  // request
  PutMac(&b, kHostMac);
  PutIp(&b, 198, 18, 0, 1);
  PutMac(&b, std::vector<uint8_t>(6, 0).data());
  PutIp(&b, 198, 18, 0, target_last_octet);
  b.resize(60, 0);  // padded to the Ethernet minimum, as a NIC sends it
  return b;
}

// IPv4/UDP from host 0 to 198.18.0.<dst>, with the given TOS and total UDP payload.
Bytes Udp(uint8_t dst, uint8_t tos, uint16_t dst_port, uint16_t payload,
          uint8_t version_ihl = 0x45) {
  Bytes b;
  const uint8_t fabric_mac[6] = {0x02, 0xfe, 0x00, 0x00, 0x00, static_cast<uint8_t>(dst - 1)};
  PutMac(&b, fabric_mac);
  PutMac(&b, kHostMac);
  Put16(&b, 0x0800);
  b.push_back(version_ihl);
  b.push_back(tos);
  Put16(&b, static_cast<uint16_t>(20 + 8 + payload));
  Put16(&b, 0);
  Put16(&b, 0x4000);
  b.push_back(64);
  b.push_back(17);
  Put16(&b, 0);  // checksum: not the element's business
  PutIp(&b, 198, 18, 0, 1);
  PutIp(&b, 198, 18, 0, dst);
  Put16(&b, 40000);
  Put16(&b, dst_port);
  Put16(&b, static_cast<uint16_t>(8 + payload));
  Put16(&b, 0);
  b.insert(b.end(), payload, 0);
  return b;
}

class ExternalHostTest : public ::testing::Test {
 protected:
  ExternalHostTest() : uplink_(&sched_, Rate::FromGbps(100), Time::FromNs(1000)) {
    ExternalHostParams p;
    p.host = kHost;
    p.num_hosts = kNumHosts;
    p.dscp_map = cong::Compile(cong::DscpMapParams{}).value();  // DSCP 26 -> 3, 48 -> 6, else 0
    p.probe_pool = pool_.get();
    p.uplink_queue_limit_bytes = 3000;
    host_ = std::make_unique<ExternalHost>(p);
    host_->ConnectUplink(&uplink_);
    // No event runs in these tests: the first frame the uplink gets goes on the wire at once,
    // every later one stays in its queue, countable.
  }
  ~ExternalHostTest() override {
    sched_.DiscardAll();  // the frame on the wire
    uplink_.DrainAll();
    host_->DrainAll();
    EXPECT_EQ(pool_.in_use(), 0u) << "an mbuf leaked";
  }

  rte_mbuf* Frame(const Bytes& b) {
    rte_mbuf* m = pool_.Alloc();
    std::memcpy(rte_pktmbuf_append(m, static_cast<uint16_t>(b.size())), b.data(), b.size());
    SetVirtualBytes(m, 0xdead);  // OnRx must clear what an earlier life left
    return m;
  }
  void Rx(const Bytes& b) {
    rte_mbuf* m = Frame(b);
    host_->OnRx(&m, 1);
  }
  Bytes PopOut() {
    EXPECT_FALSE(host_->outbox().empty());
    rte_mbuf* m = host_->outbox().pop();
    const auto* p = rte_pktmbuf_mtod(m, const uint8_t*);
    Bytes b(p, p + rte_pktmbuf_data_len(m));
    rte_pktmbuf_free(m);
    return b;
  }
  uint64_t Drops(DropReason r) const {
    return host_->counters().rx_drops.packets[static_cast<size_t>(r)];
  }

  testing::TestPool pool_;
  Scheduler sched_;
  StandaloneEgressPort uplink_;
  std::unique_ptr<ExternalHost> host_;
};

TEST_F(ExternalHostTest, AnswersArpForAnotherFabricHostWithItsFabricMac) {
  Rx(ArpRequest(6));  // who has 198.18.0.6 (host 5)?
  const Bytes r = PopOut();
  ASSERT_EQ(r.size(), 42u);  // Ethernet header + 28-byte ARP body, the request's padding gone
  const Bytes host5_mac = {0x02, 0xfe, 0x00, 0x00, 0x00, 0x05};
  EXPECT_EQ(Bytes(r.begin(), r.begin() + 6), Bytes(kHostMac, kHostMac + 6));  // to the asker
  EXPECT_EQ(Bytes(r.begin() + 6, r.begin() + 12), host5_mac);
  EXPECT_EQ(r[12], 0x08);
  EXPECT_EQ(r[13], 0x06);
  EXPECT_EQ(r[20], 0x00);  // opcode 2: reply (RFC 826)
  EXPECT_EQ(r[21], 0x02);
  EXPECT_EQ(Bytes(r.begin() + 22, r.begin() + 28), host5_mac);               // sender hw
  EXPECT_EQ(Bytes(r.begin() + 28, r.begin() + 32), (Bytes{198, 18, 0, 6}));  // sender proto
  EXPECT_EQ(Bytes(r.begin() + 32, r.begin() + 38), Bytes(kHostMac, kHostMac + 6));
  EXPECT_EQ(Bytes(r.begin() + 38, r.begin() + 42), (Bytes{198, 18, 0, 1}));
  EXPECT_EQ(host_->counters().arp_replies, 1u);
  EXPECT_TRUE(host_->host_mac_known());
}

TEST_F(ExternalHostTest, IgnoresArpForItselfAndForAddressesOutsideTheFabric) {
  Rx(ArpRequest(1));   // its own address
  Rx(ArpRequest(17));  // host 16: one past the last host
  EXPECT_TRUE(host_->outbox().empty());
  EXPECT_EQ(host_->counters().arp_ignored, 2u);
}

TEST_F(ExternalHostTest, ValidFrameEntersTheUplinkQueueOfItsDscpPriority) {
  Rx(Udp(6, 0, 5000, 10));  // takes the idle wire
  Rx(Udp(/*dst=*/6, /*tos=*/26 << 2 | 2, 4791, 12 + 100 + 4));
  Rx(Udp(6, 0, 5000, 10));
  EXPECT_EQ(uplink_.tx_packets(), 1u);      // on the wire
  EXPECT_EQ(uplink_.queue_packets(3), 1u);  // DSCP 26: the RoCE class
  EXPECT_EQ(uplink_.queue_packets(0), 1u);
  EXPECT_EQ(host_->counters().rx_forwarded, 3u);
  EXPECT_EQ(host_->counters().rx_drops.total_packets(), 0u);
}

TEST_F(ExternalHostTest, MalformedFramesAreDroppedByReason) {
  Bytes runt = Udp(6, 0, 5000, 10);
  runt.resize(14 + 6);  // IPv4 EtherType, 6 bytes where 20 must be
  Rx(runt);
  Rx(Udp(6, 0, 5000, 10, /*version_ihl=*/0x43));  // IHL 3 words < 5
  Bytes other = Udp(6, 0, 5000, 10);
  other[12] = 0x88;  // EtherType 0x88B5, IEEE local experimental
  other[13] = 0xb5;
  Rx(other);
  Rx(Udp(6, 0, 4791, 4));             // UDP to 4791 with 4 of the BTH's 12 bytes
  Rx(Udp(/*dst=*/200, 0, 5000, 10));  // 198.18.0.200: host 199 of 16
  EXPECT_EQ(Drops(DropReason::kRunt), 1u);
  EXPECT_EQ(Drops(DropReason::kBadIpv4Header), 1u);
  EXPECT_EQ(Drops(DropReason::kNotIpv4), 1u);
  EXPECT_EQ(Drops(DropReason::kTruncatedL4), 1u);
  EXPECT_EQ(Drops(DropReason::kUnknownDestination), 1u);
  EXPECT_EQ(host_->counters().rx_frames, 5u);
  EXPECT_EQ(uplink_.queue_packets(0), 0u);
}

TEST_F(ExternalHostTest, UplinkQueueOverItsLimitDropsAndCounts) {
  // Frames of 14 + 28 + 1000 = 1042 bytes + 4 FCS = 1046 (FrameBytes counts the FCS). The first
  // goes on the wire; two more fit the 3000-byte queue limit, a third would make 3138.
  for (int i = 0; i < 4; ++i) Rx(Udp(6, 0, 5000, 1000));
  EXPECT_EQ(uplink_.tx_packets(), 1u);  // on the wire
  EXPECT_EQ(uplink_.queue_packets(0), 2u);
  EXPECT_EQ(host_->counters().uplink_overflow, 1u);
}

TEST_F(ExternalHostTest, DeliveryRewritesMacsForTheRealHost) {
  Rx(ArpRequest(6));  // teaches the host's MAC
  PopOut();
  // A frame from host 5 (198.18.0.6) to this host, as the fabric delivers it.
  Bytes b = Udp(6, 0, 5000, 10);
  std::swap_ranges(b.begin() + 26, b.begin() + 30, b.begin() + 30);  // swap src and dst IP
  rte_mbuf* m = Frame(b);
  ResetMeta(m);
  host_->Receive(0, m);
  const Bytes out = PopOut();
  EXPECT_EQ(Bytes(out.begin(), out.begin() + 6), Bytes(kHostMac, kHostMac + 6));
  EXPECT_EQ(Bytes(out.begin() + 6, out.begin() + 12), (Bytes{0x02, 0xfe, 0x00, 0x00, 0x00, 0x05}));
  EXPECT_EQ(Bytes(out.begin() + 12, out.end()), Bytes(b.begin() + 12, b.end()));  // rest intact
}

TEST_F(ExternalHostTest, EmulatedFramesWithVirtualPayloadAreNotSentOut) {
  rte_mbuf* m = Frame(Udp(1, 0, 4791, 16));
  ResetMeta(m);
  SetVirtualBytes(m, 4096);
  host_->Receive(0, m);
  EXPECT_TRUE(host_->outbox().empty());
  EXPECT_EQ(host_->counters().tx_virtual_dropped, 1u);
}

TEST_F(ExternalHostTest, ProbesForTheHostMacUntilItIsKnown) {
  host_->ProbeHostMac(Time::Zero());
  host_->ProbeHostMac(Time::FromMs(50));  // within the probe interval: nothing new
  const Bytes probe = PopOut();
  EXPECT_TRUE(host_->outbox().empty());
  ASSERT_EQ(probe.size(), 42u);
  EXPECT_EQ(Bytes(probe.begin(), probe.begin() + 6), Bytes(6, 0xff));
  EXPECT_EQ(probe[21], 1);                                                // request
  EXPECT_EQ(Bytes(probe.begin() + 28, probe.begin() + 32), Bytes(4, 0));  // RFC 5227 probe: 0.0.0.0
  EXPECT_EQ(Bytes(probe.begin() + 38, probe.begin() + 42), (Bytes{198, 18, 0, 1}));
  // The host answers (an ARP reply to the emulator's MAC): learned, no more probes.
  Bytes reply = ArpRequest(0);
  reply[21] = 2;
  Rx(reply);
  EXPECT_TRUE(host_->host_mac_known());
  host_->ProbeHostMac(Time::FromMs(500));
  EXPECT_TRUE(host_->outbox().empty());
}

}  // namespace
}  // namespace fe::dp
