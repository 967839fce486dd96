// RoCEv2 wire format: Ethernet / IPv4 / UDP (dst port 4791) / InfiniBand BTH [/ AETH] / payload /
// ICRC. Offsets and opcodes follow the InfiniBand Architecture Specification vol. 1, ch. 9, and its
// RoCEv2 annex (A17); Wireshark's "infiniband" dissector parses exactly these bytes.
#pragma once

#include <cstdint>

namespace fe::dp {

inline constexpr uint16_t kRoceUdpPort = 4791;
inline constexpr uint32_t kEthHeaderBytes = 14;
inline constexpr uint32_t kIpv4HeaderBytes = 20;
inline constexpr uint8_t kIpv4VersionIhl = 0x45;  // version 4, a 5-word header: no options
inline constexpr uint32_t kUdpHeaderBytes = 8;
inline constexpr uint32_t kBthBytes = 12;
inline constexpr uint32_t kAethBytes = 4;
inline constexpr uint32_t kCnpReservedBytes = 16;  // a CNP carries 16 reserved bytes after the BTH
inline constexpr uint32_t kIcrcBytes = 4;
inline constexpr uint32_t kFcsBytes = 4;
// Preamble (7) + start-of-frame delimiter (1) + minimum inter-frame gap (12): occupies the wire
// but is not part of the frame.
inline constexpr uint32_t kPreambleAndGapBytes = 20;
inline constexpr uint32_t kMinFrameBytes = 64;  // including FCS

// Offsets from the start of the Ethernet frame (untagged).
inline constexpr uint32_t kIpv4Offset = kEthHeaderBytes;
inline constexpr uint32_t kUdpOffset = kIpv4Offset + kIpv4HeaderBytes;
inline constexpr uint32_t kBthOffset = kUdpOffset + kUdpHeaderBytes;
inline constexpr uint32_t kRoceHeadersBytes = kBthOffset + kBthBytes;  // 54

// The Ethernet frame of a RoCEv2 data packet carrying payload_bytes: headers, payload, ICRC and
// FCS (before padding to the 64-byte minimum frame).
inline constexpr uint32_t RoceFrameBytes(uint32_t payload_bytes) {
  return payload_bytes + kRoceHeadersBytes + kIcrcBytes + kFcsBytes;
}

// BTH opcodes (IBA table 38): the top three bits select the transport (000 = RC).
enum class BthOpcode : uint8_t {
  kRcSendFirst = 0x00,
  kRcSendMiddle = 0x01,
  kRcSendLast = 0x02,
  kRcSendOnly = 0x04,
  kRcAcknowledge = 0x11,
  kCnp = 0x81,  // RoCEv2 congestion notification packet (annex A17.9.3)
};

// AETH syndrome (IBA 9.7.5.1.2): bits 6..5 = 00 ACK, 11 NAK; for a NAK the low bits give the code.
inline constexpr uint8_t kAethAck = 0x1F;          // ACK, credit count "invalid" (unlimited)
inline constexpr uint8_t kAethNakPsnError = 0x60;  // NAK, PSN sequence error

// IPv4 ECN codepoints (RFC 3168).
inline constexpr uint8_t kEcnNotEct = 0;
inline constexpr uint8_t kEcnEct1 = 1;
inline constexpr uint8_t kEcnEct0 = 2;
inline constexpr uint8_t kEcnCe = 3;

// Base Transport Header, 12 bytes, all fields big-endian on the wire.
struct __attribute__((packed)) Bth {
  uint8_t opcode;
  uint8_t flags;  // SE(1) M(1) PadCnt(2) TVer(4)
  uint16_t pkey_be;
  uint8_t fecn_becn;  // F(1) B(1) reserved(6); RoCEv2 leaves these 0 and uses IP ECN instead
  uint8_t dest_qp[3];
  uint8_t ack_req;  // A(1) reserved(7)
  uint8_t psn[3];
};
static_assert(sizeof(Bth) == kBthBytes);

inline uint32_t Load24(const uint8_t* p) { return (uint32_t{p[0]} << 16) | (p[1] << 8) | p[2]; }
inline void Store24(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v >> 16);
  p[1] = static_cast<uint8_t>(v >> 8);
  p[2] = static_cast<uint8_t>(v);
}

}  // namespace fe::dp
