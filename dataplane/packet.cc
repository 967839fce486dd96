#include "dataplane/packet.h"

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_udp.h>

#include <cstring>

#include "dataplane/addressing.h"

namespace fe::dp {

DropReason ToDropReason(ParseError e) {
  switch (e) {
    case ParseError::kRunt:
      return DropReason::kRunt;
    case ParseError::kNotIpv4:
      return DropReason::kNotIpv4;
    case ParseError::kBadIpv4Header:
      return DropReason::kBadIpv4Header;
    case ParseError::kTruncatedL4:
    case ParseError::kNone:
      break;
  }
  return DropReason::kTruncatedL4;
}

ParseError ParseAnyHeaders(const rte_mbuf* m, HeaderView* out) {
  const uint32_t stored = rte_pktmbuf_data_len(m);
  const uint32_t frame = rte_pktmbuf_pkt_len(m) + VirtualBytes(m);
  if (stored < kEthHeaderBytes) return ParseError::kRunt;
  const auto* p = rte_pktmbuf_mtod(m, const uint8_t*);
  const auto* eth = reinterpret_cast<const rte_ether_hdr*>(p);
  if (eth->ether_type != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4)) return ParseError::kNotIpv4;
  if (stored < kIpv4Offset + kIpv4HeaderBytes) return ParseError::kBadIpv4Header;
  const auto* ip = reinterpret_cast<const rte_ipv4_hdr*>(p + kIpv4Offset);
  const uint32_t ihl_bytes = (ip->version_ihl & 0x0f) * 4u;
  const uint32_t total = rte_be_to_cpu_16(ip->total_length);
  if ((ip->version_ihl >> 4) != 4 || ihl_bytes < kIpv4HeaderBytes ||
      stored < kIpv4Offset + ihl_bytes || total < ihl_bytes || kIpv4Offset + total > frame) {
    return ParseError::kBadIpv4Header;
  }
  out->src_ip = rte_be_to_cpu_32(ip->src_addr);
  out->dst_ip = rte_be_to_cpu_32(ip->dst_addr);
  out->dscp = ip->type_of_service >> 2;
  out->ecn = ip->type_of_service & 0x3;
  out->ip_proto = ip->next_proto_id;
  out->src_port = out->dst_port = 0;
  out->is_roce = false;
  out->opcode = 0;
  out->dest_qp = out->psn = 0;
  const uint32_t l4 = kIpv4Offset + ihl_bytes;
  if (ip->next_proto_id == IPPROTO_UDP || ip->next_proto_id == IPPROTO_TCP) {
    if (stored < l4 + 4 || total < ihl_bytes + 4) return ParseError::kTruncatedL4;
    out->src_port = static_cast<uint16_t>((p[l4] << 8) | p[l4 + 1]);
    out->dst_port = static_cast<uint16_t>((p[l4 + 2] << 8) | p[l4 + 3]);
  }
  if (ip->next_proto_id == IPPROTO_UDP && out->dst_port == kRoceUdpPort) {
    const uint32_t bth = l4 + kUdpHeaderBytes;
    if (stored < bth + kBthBytes || total < ihl_bytes + kUdpHeaderBytes + kBthBytes) {
      return ParseError::kTruncatedL4;
    }
    const auto* b = reinterpret_cast<const Bth*>(p + bth);
    out->is_roce = true;
    out->opcode = b->opcode;
    out->dest_qp = Load24(b->dest_qp);
    out->psn = Load24(b->psn);
  }
  return ParseError::kNone;
}

namespace {

// The RFC 791 checksum of a 20-byte header whose checksum field is zero, as rte_ipv4_cksum
// computes it but in five word loads: every emulated packet needs one. The one's-complement sum
// of the words as stored is the checksum's bytes as stored (RFC 1071, 2(B)).
uint16_t OptionlessIpv4Checksum(const rte_ipv4_hdr* ip) {
  uint64_t sum = 0;
  for (int i = 0; i < 5; ++i) {
    uint32_t word;
    std::memcpy(&word, reinterpret_cast<const uint8_t*>(ip) + 4 * i, sizeof(word));
    sum += word;
  }
  sum = (sum & 0xffffffff) + (sum >> 32);
  sum = (sum & 0xffff) + (sum >> 16);
  sum = (sum & 0xffff) + (sum >> 16);
  sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<uint16_t>(~sum);
}

// Writes Eth/IPv4/UDP/BTH for a packet whose IP payload after the BTH is extra_bytes long, of
// which stored_extra are in the mbuf; returns a pointer just past the BTH.
uint8_t* WriteHeaders(rte_mbuf* m, const RoceFields& f, uint32_t stored_extra,
                      uint32_t extra_bytes) {
  uint8_t* p = AppendBytes(m, static_cast<uint16_t>(kRoceHeadersBytes + stored_extra));
  if (p == nullptr) return nullptr;
  auto* eth = reinterpret_cast<rte_ether_hdr*>(p);
  HostMac(f.dst_host, eth->dst_addr.addr_bytes);
  HostMac(f.src_host, eth->src_addr.addr_bytes);
  eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);

  auto* ip = reinterpret_cast<rte_ipv4_hdr*>(p + kIpv4Offset);
  const uint32_t ip_total = kIpv4HeaderBytes + kUdpHeaderBytes + kBthBytes + extra_bytes;
  ip->version_ihl = kIpv4VersionIhl;
  ip->type_of_service = static_cast<uint8_t>((f.dscp << 2) | (f.ecn & 0x3));
  ip->total_length = rte_cpu_to_be_16(static_cast<uint16_t>(ip_total));
  ip->packet_id = 0;
  ip->fragment_offset = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);
  ip->time_to_live = 64;
  ip->next_proto_id = IPPROTO_UDP;
  ip->src_addr = rte_cpu_to_be_32(HostIp(f.src_host));
  ip->dst_addr = rte_cpu_to_be_32(HostIp(f.dst_host));
  ip->hdr_checksum = 0;
  ip->hdr_checksum = OptionlessIpv4Checksum(ip);

  auto* udp = reinterpret_cast<rte_udp_hdr*>(p + kUdpOffset);
  udp->src_port = rte_cpu_to_be_16(f.src_port);
  udp->dst_port = rte_cpu_to_be_16(kRoceUdpPort);
  udp->dgram_len = rte_cpu_to_be_16(static_cast<uint16_t>(ip_total - kIpv4HeaderBytes));
  udp->dgram_cksum = 0;  // RoCEv2 senders may leave the UDP checksum zero; the ICRC covers it

  auto* bth = reinterpret_cast<Bth*>(p + kBthOffset);
  bth->opcode = static_cast<uint8_t>(f.opcode);
  bth->flags = 0;
  bth->pkey_be = rte_cpu_to_be_16(0xffff);  // default partition
  bth->fecn_becn = 0;
  Store24(bth->dest_qp, f.dest_qp);
  bth->ack_req = f.ack_request ? 0x80 : 0;
  Store24(bth->psn, f.psn & 0xffffff);
  return p + kRoceHeadersBytes;
}

}  // namespace

bool WriteRocePacket(rte_mbuf* m, const RoceFields& f, uint32_t payload_bytes) {
  if (WriteHeaders(m, f, 0, payload_bytes + kIcrcBytes) == nullptr) return false;
  SetVirtualBytes(m, payload_bytes + kIcrcBytes);
  return true;
}

bool WriteRoceAck(rte_mbuf* m, const RoceFields& f, uint8_t syndrome, uint32_t msn,
                  std::span<const uint8_t> extension) {
  const auto stored = static_cast<uint32_t>(kAethBytes + extension.size());
  uint8_t* aeth = WriteHeaders(m, f, stored, stored + kIcrcBytes);
  if (aeth == nullptr) return false;
  aeth[0] = syndrome;
  Store24(aeth + 1, msn & 0xffffff);
  if (!extension.empty()) std::memcpy(aeth + kAethBytes, extension.data(), extension.size());
  SetVirtualBytes(m, kIcrcBytes);
  return true;
}

bool WriteRoceCnp(rte_mbuf* m, const RoceFields& f) {
  // The 16 reserved bytes are zeros, which is what virtual bytes read as (a capture writes them
  // as zeros): carried like a payload, they leave the stored headers within the 64 bytes every
  // other emulated frame fits.
  if (WriteHeaders(m, f, 0, kCnpReservedBytes + kIcrcBytes) == nullptr) return false;
  SetVirtualBytes(m, kCnpReservedBytes + kIcrcBytes);
  return true;
}

namespace {

// The header checksum after one 16-bit word of the header changed from old_word to new_word,
// all in host order: RFC 1624 eqn. 3, HC' = ~(~HC + ~m + m'). It agrees with a checksum computed
// from scratch for every header; RFC 1141's HC + m + ~m' (eqn. 2) can give 0xFFFF where that
// gives 0x0000.
uint16_t UpdatedChecksum(uint16_t checksum, uint16_t old_word, uint16_t new_word) {
  uint32_t sum = static_cast<uint16_t>(~checksum);
  sum += static_cast<uint16_t>(~old_word);
  sum += new_word;
  sum = (sum & 0xffff) + (sum >> 16);
  sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<uint16_t>(~sum);
}

}  // namespace

void SetIpEcn(rte_mbuf* m, uint8_t ecn) {
  auto* ip = rte_pktmbuf_mtod_offset(m, rte_ipv4_hdr*, kIpv4Offset);
  const uint8_t old_tos = ip->type_of_service;
  const uint8_t new_tos = static_cast<uint8_t>((old_tos & 0xfc) | (ecn & 0x3));
  if (old_tos == new_tos) return;
  // The 16-bit word holding version/IHL and TOS.
  const uint16_t old_word = static_cast<uint16_t>((ip->version_ihl << 8) | old_tos);
  const uint16_t new_word = static_cast<uint16_t>((ip->version_ihl << 8) | new_tos);
  ip->type_of_service = new_tos;
  ip->hdr_checksum =
      rte_cpu_to_be_16(UpdatedChecksum(rte_be_to_cpu_16(ip->hdr_checksum), old_word, new_word));
}

bool DecrementTtl(rte_mbuf* m) {
  auto* ip = rte_pktmbuf_mtod_offset(m, rte_ipv4_hdr*, kIpv4Offset);
  const uint8_t ttl = ip->time_to_live;
  if (ttl <= 1) return false;
  // The 16-bit word holding TTL and protocol.
  const uint16_t old_word = static_cast<uint16_t>((ttl << 8) | ip->next_proto_id);
  const auto new_word = static_cast<uint16_t>(old_word - 0x100);
  ip->time_to_live = static_cast<uint8_t>(ttl - 1);
  ip->hdr_checksum =
      rte_cpu_to_be_16(UpdatedChecksum(rte_be_to_cpu_16(ip->hdr_checksum), old_word, new_word));
  return true;
}

}  // namespace fe::dp
