// Packets are rte_mbufs holding real Ethernet/IPv4/UDP/BTH headers. Emulated traffic that never
// leaves the emulator carries its payload as a virtual length in the mbuf's metadata, so a
// 4 KB packet costs one 192-byte mempool element and no payload copy. Everything the wire sees
// (serialisation time, IP/UDP lengths) counts the virtual bytes as if they were there.
#pragma once

#include <netinet/in.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "core/units.h"
#include "dataplane/drop_reason.h"
#include "dataplane/roce_headers.h"

namespace fe::dp {

// Per-packet metadata. What every hop reads (the virtual length and whether the packet collects
// INT) sits in the mbuf's first cache line, in its `hash` field, which software mode never fills
// and no driver reads on transmit (receive paths call ResetMeta, as drivers may write it): a hop
// then touches two lines of a packet, that one and its headers. HPCC's INT stack, read only by
// the ports that stamp it and the NICs, is in the private area, which only a pool for HPCC
// traffic has (CreatePacketPool): the stack is touched only when the flags below say it is there.
struct PacketMeta {
  uint8_t int_stack[64];  // HPCC in-band telemetry collected along the path (int_stamp.h)
};
static_assert(sizeof(PacketMeta) == 64,
              "the private area is one line, HPCC runs only: a pool element is 320 bytes with it, "
              "256 without");
// What a hop reads and writes of an mbuf is in its first line; the second (`next`, `tx_offload`)
// is never touched by a frame of the fabric (docs/architecture.md, "Packets").
static_assert(sizeof(rte_mbuf) == 2 * RTE_CACHE_LINE_SIZE &&
                  offsetof(rte_mbuf, next) >= RTE_CACHE_LINE_SIZE &&
                  offsetof(rte_mbuf, tx_offload) >= RTE_CACHE_LINE_SIZE,
              "an mbuf is two lines, its chain and offload fields in the second");
static_assert(offsetof(rte_mbuf, hash) + sizeof(rte_mbuf::hash) <= RTE_CACHE_LINE_SIZE &&
                  offsetof(rte_mbuf, pkt_len) + sizeof(rte_mbuf::pkt_len) <= RTE_CACHE_LINE_SIZE &&
                  offsetof(rte_mbuf, buf_len) + sizeof(rte_mbuf::buf_len) <= RTE_CACHE_LINE_SIZE &&
                  offsetof(rte_mbuf, pool) + sizeof(rte_mbuf::pool) <= RTE_CACHE_LINE_SIZE,
              "hot fields in the mbuf's first line: the virtual length and INT flags (in `hash`), "
              "the lengths, and the pool that a raw free returns it to");
inline constexpr uint16_t kPacketPrivBytes = sizeof(PacketMeta);

inline PacketMeta& Meta(rte_mbuf* m) { return *static_cast<PacketMeta*>(rte_mbuf_to_priv(m)); }
inline const PacketMeta& Meta(const rte_mbuf* m) {
  return *static_cast<const PacketMeta*>(rte_mbuf_to_priv(const_cast<rte_mbuf*>(m)));
}

// Bytes of the frame not stored in the mbuf (payload and ICRC).
inline uint32_t VirtualBytes(const rte_mbuf* m) { return m->hash.usr; }
inline void SetVirtualBytes(rte_mbuf* m, uint32_t bytes) { m->hash.usr = bytes; }
// INT flags (int_stamp.h sets them): m carries an INT stack in its private area, and collects
// records into it at the switch ports it leaves.
inline constexpr uint32_t kIntCarried = 1;
inline constexpr uint32_t kIntCollecting = 2;
inline uint32_t IntFlags(const rte_mbuf* m) { return m->hash.fdir.hi; }
inline void SetIntFlags(rte_mbuf* m, uint32_t flags) { m->hash.fdir.hi = flags; }
inline bool CollectsInt(const rte_mbuf* m) { return (IntFlags(m) & kIntCollecting) != 0; }
// Clears all of m's metadata: for a frame from outside, whatever an earlier life of the mbuf or
// the driver left there.
inline void ResetMeta(rte_mbuf* m) {
  SetVirtualBytes(m, 0);
  SetIntFlags(m, 0);
}

// Frame length on the wire including FCS (the mbuf holds the frame without FCS).
inline uint32_t FrameBytes(const rte_mbuf* m) {
  return rte_pktmbuf_pkt_len(m) + VirtualBytes(m) + kFcsBytes;
}

// rte_pktmbuf_append for the frames written here: a one-segment mbuf grows in place, without the
// walk to the last segment, which reads `next` in the mbuf's second line, a line a frame otherwise
// never touches (a miss per packet on a large fabric). nullptr when the room is too small.
inline uint8_t* AppendBytes(rte_mbuf* m, uint16_t len) {
  if (m->nb_segs != 1) return reinterpret_cast<uint8_t*>(rte_pktmbuf_append(m, len));
  if (m->data_off + m->data_len + len > m->buf_len) return nullptr;
  uint8_t* tail = rte_pktmbuf_mtod_offset(m, uint8_t*, m->data_len);
  m->data_len = static_cast<uint16_t>(m->data_len + len);
  m->pkt_len += len;
  return tail;
}
// Bytes of wire time a frame occupies, padding to the Ethernet minimum and adding preamble+IFG.
inline constexpr uint32_t WireBytesOfFrame(uint32_t frame_bytes) {
  return (frame_bytes < kMinFrameBytes ? kMinFrameBytes : frame_bytes) + kPreambleAndGapBytes;
}
inline uint32_t WireBytes(const rte_mbuf* m) { return WireBytesOfFrame(FrameBytes(m)); }

// What a switch or NIC needs from the headers, read from the real bytes.
struct HeaderView {
  uint32_t src_ip;
  uint32_t dst_ip;
  uint16_t src_port;
  uint16_t dst_port;
  uint8_t dscp;
  uint8_t ecn;
  uint8_t ip_proto;
  bool is_roce;  // UDP to port 4791 with a complete BTH
  uint8_t opcode;
  uint32_t dest_qp;
  uint32_t psn;
};

enum class ParseError : uint8_t {
  kNone,
  kRunt,           // shorter than an Ethernet header
  kNotIpv4,        // another EtherType (PFC and ARP are handled before parsing)
  kBadIpv4Header,  // version, IHL or total length inconsistent with the frame
  kTruncatedL4,    // UDP header or BTH cut short
};

// The drop reason counted for a frame that failed to parse (e must not be kNone).
DropReason ToDropReason(ParseError e);

// ParseHeaders for any frame: the general path.
ParseError ParseAnyHeaders(const rte_mbuf* m, HeaderView* out);

// Parses the headers at the front of m. The frame's logical length includes the virtual bytes.
// Inline, with the frame every emulated NIC sends (IPv4 without options, UDP to the RoCEv2
// port, a whole BTH) checked in a few loads: a hop parses once, and its caller's unused fields
// then cost nothing. Any other frame takes the general path, which decides the same for this one.
[[gnu::always_inline]] inline ParseError ParseHeaders(const rte_mbuf* m, HeaderView* out) {
  const uint32_t stored = rte_pktmbuf_data_len(m);
  const auto* p = rte_pktmbuf_mtod(m, const uint8_t*);
  // Big-endian loads of the fields, whole words at a time.
  const auto be16 = [p](uint32_t at) {
    uint16_t v;
    std::memcpy(&v, p + at, sizeof(v));
    return __builtin_bswap16(v);
  };
  const auto be32 = [p](uint32_t at) {
    uint32_t v;
    std::memcpy(&v, p + at, sizeof(v));
    return __builtin_bswap32(v);
  };
  // Any other frame is parsed into a copy, so that *out never escapes into a call: a caller's
  // header view then lives in registers, and the fields it does not read cost nothing.
  const auto any = [m, out] {
    HeaderView h{};
    const ParseError e = ParseAnyHeaders(m, &h);
    *out = h;
    return e;
  };
  constexpr uint32_t kEtherType = offsetof(rte_ether_hdr, ether_type);
  constexpr uint32_t kIpVersionIhl = kIpv4Offset + offsetof(rte_ipv4_hdr, version_ihl);
  constexpr uint32_t kIpTos = kIpv4Offset + offsetof(rte_ipv4_hdr, type_of_service);
  constexpr uint32_t kIpTotalLength = kIpv4Offset + offsetof(rte_ipv4_hdr, total_length);
  constexpr uint32_t kIpProto = kIpv4Offset + offsetof(rte_ipv4_hdr, next_proto_id);
  constexpr uint32_t kIpSrc = kIpv4Offset + offsetof(rte_ipv4_hdr, src_addr);
  constexpr uint32_t kIpDst = kIpv4Offset + offsetof(rte_ipv4_hdr, dst_addr);
  constexpr uint32_t kUdpSrcPort = kUdpOffset + offsetof(rte_udp_hdr, src_port);
  constexpr uint32_t kUdpDstPort = kUdpOffset + offsetof(rte_udp_hdr, dst_port);
  if (stored < kRoceHeadersBytes || be16(kEtherType) != RTE_ETHER_TYPE_IPV4 ||
      p[kIpVersionIhl] != kIpv4VersionIhl || p[kIpProto] != IPPROTO_UDP ||
      be16(kUdpDstPort) != kRoceUdpPort) {
    return any();
  }
  const uint32_t total = be16(kIpTotalLength);
  const uint32_t frame = rte_pktmbuf_pkt_len(m) + VirtualBytes(m);
  if (total < kIpv4HeaderBytes + kUdpHeaderBytes + kBthBytes || kIpv4Offset + total > frame) {
    return any();
  }
  out->src_ip = be32(kIpSrc);
  out->dst_ip = be32(kIpDst);
  out->dscp = p[kIpTos] >> 2;
  out->ecn = p[kIpTos] & 0x3;
  out->ip_proto = IPPROTO_UDP;
  out->src_port = be16(kUdpSrcPort);
  out->dst_port = kRoceUdpPort;
  out->is_roce = true;
  out->opcode = p[kBthOffset + offsetof(Bth, opcode)];
  // The 24-bit fields end the words that start one byte before them.
  out->dest_qp = be32(kBthOffset + offsetof(Bth, dest_qp) - 1) & 0xffffff;
  out->psn = be32(kBthOffset + offsetof(Bth, psn) - 1) & 0xffffff;
  return ParseError::kNone;
}

// Field values of one RoCEv2 packet to write.
struct RoceFields {
  uint32_t src_host;
  uint32_t dst_host;
  uint16_t src_port;  // UDP source port: RoCEv2's ECMP entropy, fixed per QP
  uint8_t dscp;
  uint8_t ecn;
  BthOpcode opcode;
  uint32_t dest_qp;
  uint32_t psn;
  bool ack_request;
};

// Writes Eth/IPv4/UDP/BTH into m (which must be empty) and, for an ACK, an AETH with `syndrome`
// and `msn` (then `extension`, stored after the AETH); payload_bytes (+ ICRC) are virtual.
// Returns false if the mbuf has no room.
bool WriteRocePacket(rte_mbuf* m, const RoceFields& f, uint32_t payload_bytes);
bool WriteRoceAck(rte_mbuf* m, const RoceFields& f, uint8_t syndrome, uint32_t msn,
                  std::span<const uint8_t> extension = {});
bool WriteRoceCnp(rte_mbuf* m, const RoceFields& f);

// Rewrites the ECN field of the IPv4 header and fixes its checksum incrementally (RFC 1624).
void SetIpEcn(rte_mbuf* m, uint8_t ecn);

// A router's TTL step (RFC 1812 5.3.1): with the IPv4 TTL above 1, decrements it, fixes the
// checksum incrementally (RFC 1624) and returns true; otherwise leaves the header alone and
// returns false, and the frame must not be forwarded. m must hold a parsed IPv4 header.
bool DecrementTtl(rte_mbuf* m);

}  // namespace fe::dp
