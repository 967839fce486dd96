#include "dataplane/packet.h"

#include <gtest/gtest.h>

#include <rte_ip.h>

#include <cstring>

#include "core/random.h"
#include "dataplane/addressing.h"
#include "ipv4_checksum.h"
#include "test_pool.h"

namespace fe::dp {
namespace {

// One's-complement sum of the IPv4 header's 16-bit words: 0xFFFF for a valid header (RFC 791),
// computed here without the encoder's checksum helper.
uint16_t Ipv4HeaderSum(const uint8_t* ip) {
  uint32_t sum = 0;
  for (int i = 0; i < 20; i += 2) sum += (ip[i] << 8) | ip[i + 1];
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<uint16_t>(sum);
}

using testing::Ipv4ChecksumFromScratch;

uint16_t StoredChecksum(const uint8_t* ip) { return static_cast<uint16_t>((ip[10] << 8) | ip[11]); }

// Sets the header's TTL and identification and writes its checksum from scratch.
void SetTtlAndId(uint8_t* ip, uint8_t ttl, uint16_t id) {
  ip[8] = ttl;
  ip[4] = static_cast<uint8_t>(id >> 8);
  ip[5] = static_cast<uint8_t>(id);
  const uint16_t c = Ipv4ChecksumFromScratch(ip);
  ip[10] = static_cast<uint8_t>(c >> 8);
  ip[11] = static_cast<uint8_t>(c);
}

RoceFields DataFields() {
  return RoceFields{/*src_host=*/5,   /*dst_host=*/9,           /*src_port=*/0xC123,
                    /*dscp=*/26,
                    /*ecn=*/kEcnEct0, BthOpcode::kRcSendMiddle, /*dest_qp=*/0x123456,
                    /*psn=*/0xABCDEF, /*ack_request=*/true};
}

TEST(PacketTest, DataPacketBytesSitAtTheSpecifiedOffsets) {
  testing::TestPool pool;
  rte_mbuf* m = pool.Alloc();
  ASSERT_TRUE(WriteRocePacket(m, DataFields(), 4096));
  const auto* p = rte_pktmbuf_mtod(m, const uint8_t*);
  ASSERT_EQ(rte_pktmbuf_data_len(m), 54u);  // 14 Eth + 20 IPv4 + 8 UDP + 12 BTH
  // Ethernet (IEEE 802.3): destination MAC, source MAC, EtherType 0x0800.
  const uint8_t dst_mac[6] = {0x02, 0xfe, 0x00, 0x00, 0x00, 9};
  EXPECT_EQ(std::memcmp(p, dst_mac, 6), 0);
  EXPECT_EQ(p[11], 5);
  EXPECT_EQ(p[12], 0x08);
  EXPECT_EQ(p[13], 0x00);
  // IPv4 (RFC 791): version 4, IHL 5; TOS = DSCP 26 << 2 | ECT(0) = 0x6A.
  EXPECT_EQ(p[14], 0x45);
  EXPECT_EQ(p[15], 0x6A);
  // Total length = 20 + 8 + 12 + 4096 payload + 4 ICRC = 4140 = 0x102C.
  EXPECT_EQ(p[16], 0x10);
  EXPECT_EQ(p[17], 0x2C);
  EXPECT_EQ(p[23], 17);  // protocol UDP
  EXPECT_EQ(Ipv4HeaderSum(p + 14), 0xFFFF);
  // 198.18.0.10 is host 9, 198.18.0.6 host 5.
  const uint8_t src_ip[4] = {198, 18, 0, 6};
  const uint8_t dst_ip[4] = {198, 18, 0, 10};
  EXPECT_EQ(std::memcmp(p + 26, src_ip, 4), 0);
  EXPECT_EQ(std::memcmp(p + 30, dst_ip, 4), 0);
  // UDP (RFC 768): source port, destination port 4791 = 0x12B7, length 4120.
  EXPECT_EQ(p[34], 0xC1);
  EXPECT_EQ(p[35], 0x23);
  EXPECT_EQ(p[36], 0x12);
  EXPECT_EQ(p[37], 0xB7);
  EXPECT_EQ((p[38] << 8) | p[39], 4120);
  // BTH (IBA 9.2): opcode, flags, P_Key 0xFFFF, reserved, dest QP (24 bits), A bit, PSN (24 bits).
  EXPECT_EQ(p[42], 0x01);
  EXPECT_EQ(p[44], 0xFF);
  EXPECT_EQ(p[45], 0xFF);
  EXPECT_EQ(p[47], 0x12);
  EXPECT_EQ(p[48], 0x34);
  EXPECT_EQ(p[49], 0x56);
  EXPECT_EQ(p[50], 0x80);
  EXPECT_EQ(p[51], 0xAB);
  EXPECT_EQ(p[52], 0xCD);
  EXPECT_EQ(p[53], 0xEF);
  // On the wire: 4140 IP bytes + 14 Eth + 4 FCS = 4158 frame bytes, + 20 preamble and gap.
  EXPECT_EQ(FrameBytes(m), 4158u);
  EXPECT_EQ(WireBytes(m), 4178u);
  rte_pktmbuf_free(m);
}

TEST(PacketTest, ParseRoundTripsWhatWasWritten) {
  testing::TestPool pool;
  rte_mbuf* m = pool.Alloc();
  ASSERT_TRUE(WriteRocePacket(m, DataFields(), 1000));
  HeaderView h;
  ASSERT_EQ(ParseHeaders(m, &h), ParseError::kNone);
  EXPECT_EQ(h.src_ip, HostIp(5));
  EXPECT_EQ(h.dst_ip, HostIp(9));
  EXPECT_EQ(HostOfIp(h.dst_ip), 9u);
  EXPECT_EQ(h.src_port, 0xC123);
  EXPECT_EQ(h.dst_port, kRoceUdpPort);
  EXPECT_EQ(h.dscp, 26);
  EXPECT_EQ(h.ecn, kEcnEct0);
  EXPECT_TRUE(h.is_roce);
  EXPECT_EQ(h.opcode, 0x01);
  EXPECT_EQ(h.dest_qp, 0x123456u);
  EXPECT_EQ(h.psn, 0xABCDEFu);
  rte_pktmbuf_free(m);
}

TEST(PacketTest, AckAndCnpCarryTheirExtraHeaders) {
  testing::TestPool pool;
  rte_mbuf* a = pool.Alloc();
  RoceFields f = DataFields();
  f.opcode = BthOpcode::kRcAcknowledge;
  ASSERT_TRUE(WriteRoceAck(a, f, kAethAck, 77));
  const auto* p = rte_pktmbuf_mtod(a, const uint8_t*);
  EXPECT_EQ(p[42], 0x11);
  EXPECT_EQ(p[54], kAethAck);  // AETH follows the BTH: syndrome, then 24-bit MSN
  EXPECT_EQ(p[57], 77);
  // 14 + 20 + 8 + 12 + 4 AETH + 4 ICRC + 4 FCS = 66 bytes.
  EXPECT_EQ(FrameBytes(a), 66u);
  rte_mbuf* c = pool.Alloc();
  f.opcode = BthOpcode::kCnp;
  f.dscp = 48;
  ASSERT_TRUE(WriteRoceCnp(c, f));
  const auto* q = rte_pktmbuf_mtod(c, const uint8_t*);
  EXPECT_EQ(q[42], 0x81);
  EXPECT_EQ(q[15] >> 2, 48);
  // 54 + 16 reserved + 4 ICRC + 4 FCS = 78 bytes (annex A17.9.3).
  EXPECT_EQ(FrameBytes(c), 78u);
  rte_pktmbuf_free(a);
  rte_pktmbuf_free(c);
}

// Every written header must carry the checksum RFC 791 defines, for any addresses, lengths and
// DSCP: its words sum to 0xFFFF, and DPDK's own checksum of it with the field zeroed agrees.
TEST(PacketTest, WrittenChecksumsAreValidForManyHeaders) {
  testing::TestPool pool;
  Random rng(11);
  for (int i = 0; i < 2000; ++i) {
    RoceFields f = DataFields();
    f.src_host = static_cast<uint32_t>(rng.NextBelow(kMaxHosts));
    f.dst_host = static_cast<uint32_t>(rng.NextBelow(kMaxHosts));
    f.dscp = static_cast<uint8_t>(rng.NextBelow(64));
    f.ecn = static_cast<uint8_t>(rng.NextBelow(4));
    rte_mbuf* m = pool.Alloc();
    ASSERT_TRUE(WriteRocePacket(m, f, static_cast<uint32_t>(rng.NextBelow(9000))));
    auto* ip = rte_pktmbuf_mtod(m, uint8_t*) + kIpv4Offset;
    EXPECT_EQ(Ipv4HeaderSum(ip), 0xFFFF) << "header " << i;
    const uint16_t stored = StoredChecksum(ip);
    ip[10] = ip[11] = 0;
    EXPECT_EQ(rte_be_to_cpu_16(rte_ipv4_cksum(reinterpret_cast<const rte_ipv4_hdr*>(ip))), stored)
        << "header " << i;
    rte_pktmbuf_free(m);
  }
}

TEST(PacketTest, CeMarkKeepsTheChecksumValid) {
  testing::TestPool pool;
  rte_mbuf* m = pool.Alloc();
  ASSERT_TRUE(WriteRocePacket(m, DataFields(), 4096));
  SetIpEcn(m, kEcnCe);
  const auto* p = rte_pktmbuf_mtod(m, const uint8_t*);
  EXPECT_EQ(p[15] & 0x3, kEcnCe);
  EXPECT_EQ(p[15] >> 2, 26);
  EXPECT_EQ(Ipv4HeaderSum(p + 14), 0xFFFF);
  rte_pktmbuf_free(m);
}

TEST(PacketTest, TtlDecrementLeavesTheChecksumARecomputationWouldWrite) {
  testing::TestPool pool;
  rte_mbuf* m = pool.Alloc();
  ASSERT_TRUE(WriteRocePacket(m, DataFields(), 4096));
  uint8_t* ip = rte_pktmbuf_mtod(m, uint8_t*) + 14;
  // Every TTL a router forwards, 2 to 255: exact equality, the checksum is an integer.
  for (int ttl = 2; ttl <= 255; ++ttl) {
    SetTtlAndId(ip, static_cast<uint8_t>(ttl), 0x1234);
    uint8_t before[20];
    std::memcpy(before, ip, 20);
    ASSERT_TRUE(DecrementTtl(m));
    EXPECT_EQ(ip[8], ttl - 1);
    EXPECT_EQ(StoredChecksum(ip), Ipv4ChecksumFromScratch(ip)) << "TTL " << ttl;
    for (int i : {0, 1, 2, 3, 4, 5, 6, 7, 9, 12, 13, 14, 15, 16, 17, 18, 19}) {
      EXPECT_EQ(ip[i], before[i]) << "byte " << i << " at TTL " << ttl;
    }
  }
  rte_pktmbuf_free(m);
}

TEST(PacketTest, TtlDecrementGivesPositiveZeroWhereTheNewSumIsAllOnes) {
  // RFC 1624 section 3's boundary: the new header's words sum to 0xFFFF, so its checksum from
  // scratch is 0x0000; RFC 1141's update would write 0xFFFF there. The identification is chosen
  // to bring the sum of the decremented header there.
  testing::TestPool pool;
  rte_mbuf* m = pool.Alloc();
  ASSERT_TRUE(WriteRocePacket(m, DataFields(), 4096));
  uint8_t* ip = rte_pktmbuf_mtod(m, uint8_t*) + 14;
  for (int ttl : {2, 64, 255}) {
    SetTtlAndId(ip, static_cast<uint8_t>(ttl - 1), 0);
    const uint16_t sum_without_id = static_cast<uint16_t>(~Ipv4ChecksumFromScratch(ip));
    SetTtlAndId(ip, static_cast<uint8_t>(ttl), static_cast<uint16_t>(0xffff - sum_without_id));
    ASSERT_EQ(StoredChecksum(ip), 0xFEFF) << "TTL " << ttl;  // the old sum is 0xFFFF + 0x0100
    ASSERT_TRUE(DecrementTtl(m));
    EXPECT_EQ(Ipv4ChecksumFromScratch(ip), 0x0000) << "TTL " << ttl;
    EXPECT_EQ(StoredChecksum(ip), 0x0000) << "TTL " << ttl;
  }
  rte_pktmbuf_free(m);
}

TEST(PacketTest, TtlOfOneOrZeroIsNotDecremented) {
  // RFC 1812 5.3.1: such a packet is discarded, not forwarded with TTL 0; the header stays valid.
  testing::TestPool pool;
  rte_mbuf* m = pool.Alloc();
  ASSERT_TRUE(WriteRocePacket(m, DataFields(), 4096));
  uint8_t* ip = rte_pktmbuf_mtod(m, uint8_t*) + 14;
  for (uint8_t ttl : {1, 0}) {
    SetTtlAndId(ip, ttl, 0x1234);
    uint8_t before[20];
    std::memcpy(before, ip, 20);
    EXPECT_FALSE(DecrementTtl(m));
    EXPECT_EQ(std::memcmp(ip, before, 20), 0) << "TTL " << int{ttl};
    EXPECT_EQ(StoredChecksum(ip), Ipv4ChecksumFromScratch(ip));
  }
  rte_pktmbuf_free(m);
}

TEST(PacketTest, MalformedFramesAreNamed) {
  testing::TestPool pool;
  HeaderView h;
  rte_mbuf* runt = pool.Alloc();
  rte_pktmbuf_append(runt, 10);
  EXPECT_EQ(ParseHeaders(runt, &h), ParseError::kRunt);

  rte_mbuf* arp = pool.Alloc();
  auto* a = reinterpret_cast<uint8_t*>(rte_pktmbuf_append(arp, 60));
  std::memset(a, 0, 60);
  a[12] = 0x08;
  a[13] = 0x06;
  EXPECT_EQ(ParseHeaders(arp, &h), ParseError::kNotIpv4);

  rte_mbuf* bad_ihl = pool.Alloc();
  ASSERT_TRUE(WriteRocePacket(bad_ihl, DataFields(), 100));
  rte_pktmbuf_mtod(bad_ihl, uint8_t*)[14] = 0x43;  // IHL 3 words: shorter than any IPv4 header
  EXPECT_EQ(ParseHeaders(bad_ihl, &h), ParseError::kBadIpv4Header);

  rte_mbuf* truncated = pool.Alloc();
  ASSERT_TRUE(WriteRocePacket(truncated, DataFields(), 0));
  SetVirtualBytes(truncated, 0);
  rte_pktmbuf_trim(truncated, 6);  // cut into the BTH
  auto* ip = rte_pktmbuf_mtod(truncated, uint8_t*) + 14;
  ip[2] = 0;
  ip[3] = 20 + 8 + 6;  // IP total length consistent with the cut frame
  EXPECT_EQ(ParseHeaders(truncated, &h), ParseError::kTruncatedL4);
  for (rte_mbuf* m : {runt, arp, bad_ihl, truncated}) rte_pktmbuf_free(m);
}

// The inline parse checks the frame an emulated NIC sends in a few loads and hands anything else
// to the general parser: for every frame, both must decide alike. Every byte of the headers is
// set to values that matter somewhere (EtherType, version and IHL, protocol, port bytes, lengths)
// and the stored frame is cut at every length.
TEST(PacketTest, InlineParseDecidesAsTheGeneralParserOnEveryMutation) {
  testing::TestPool pool;
  const auto same = [](const rte_mbuf* m) {
    HeaderView fast{};
    HeaderView any{};
    const ParseError e = ParseHeaders(m, &fast);
    EXPECT_EQ(e, ParseAnyHeaders(m, &any));
    if (e != ParseError::kNone) return;
    EXPECT_EQ(std::memcmp(&fast, &any, sizeof(HeaderView)), 0);
  };
  for (const uint32_t virtual_bytes : {0u, 1000u}) {
    for (uint32_t at = 0; at < kRoceHeadersBytes + kAethBytes; ++at) {
      for (const uint8_t v : {0x00, 0x01, 0x06, 0x08, 0x11, 0x12, 0x45, 0x46, 0xb7, 0xff}) {
        rte_mbuf* m = pool.Alloc();
        ASSERT_TRUE(WriteRoceAck(m, DataFields(), kAethAck, 7));
        SetVirtualBytes(m, virtual_bytes);
        rte_pktmbuf_mtod(m, uint8_t*)[at] = v;
        same(m);
        rte_pktmbuf_free(m);
      }
    }
  }
  for (uint32_t keep = 0; keep <= kRoceHeadersBytes; ++keep) {
    rte_mbuf* m = pool.Alloc();
    ASSERT_TRUE(WriteRocePacket(m, DataFields(), 100));
    rte_pktmbuf_trim(m, static_cast<uint16_t>(rte_pktmbuf_data_len(m) - keep));
    same(m);
    rte_pktmbuf_free(m);
  }
}

// AppendBytes is rte_pktmbuf_append without the walk along `next`: on every length up to past
// the room, and on a chain, it must give the pointer and lengths DPDK's function gives.
TEST(PacketTest, AppendBytesGrowsAFrameAsRtePktmbufAppendDoes) {
  testing::TestPool pool(63, 256);  // 128 bytes of headroom, 128 of room
  for (uint16_t first = 0; first <= 130; first += 13) {
    for (uint16_t len = 0; len <= 130; len += 7) {
      rte_mbuf* ours = pool.Alloc();
      rte_mbuf* dpdk = pool.Alloc();
      ASSERT_NE(ours, nullptr);
      ASSERT_NE(dpdk, nullptr);
      const bool fits = AppendBytes(ours, first) != nullptr;
      ASSERT_EQ(fits, rte_pktmbuf_append(dpdk, first) != nullptr) << first;
      const uint8_t* got = AppendBytes(ours, len);
      const auto* want = reinterpret_cast<const uint8_t*>(rte_pktmbuf_append(dpdk, len));
      ASSERT_EQ(got == nullptr, want == nullptr) << first << "+" << len;
      if (got != nullptr) {
        EXPECT_EQ(got - reinterpret_cast<const uint8_t*>(ours->buf_addr),
                  want - reinterpret_cast<const uint8_t*>(dpdk->buf_addr));
      }
      EXPECT_EQ(rte_pktmbuf_data_len(ours), rte_pktmbuf_data_len(dpdk));
      EXPECT_EQ(rte_pktmbuf_pkt_len(ours), rte_pktmbuf_pkt_len(dpdk));
      rte_pktmbuf_free(ours);
      rte_pktmbuf_free(dpdk);
    }
  }
  rte_mbuf* head = pool.Alloc();
  rte_mbuf* tail = pool.Alloc();
  ASSERT_EQ(rte_pktmbuf_chain(head, tail), 0);
  const uint8_t* p = AppendBytes(head, 10);
  EXPECT_EQ(p, rte_pktmbuf_mtod(tail, const uint8_t*));  // a chain grows at its last segment
  EXPECT_EQ(rte_pktmbuf_pkt_len(head), 10u);
  EXPECT_EQ(rte_pktmbuf_data_len(tail), 10u);
  rte_pktmbuf_free(head);
  EXPECT_EQ(pool.in_use(), 0u);
}

}  // namespace
}  // namespace fe::dp
