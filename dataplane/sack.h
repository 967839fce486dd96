// Selective acknowledgement on the wire. RoCEv2 has no SACK: an IBA acknowledge packet names only
// the last PSN received in order (BTH PSN) with an AETH. The out-of-order mode appends a 6-byte
// SACK block after the AETH of every ACK, modelled on Ultra Ethernet's PDS ACK, which carries a
// SACK bitmap at an offset from its cumulative PSN:
//
//   bytes 0-1  offset, big-endian, in blocks of 32 PSNs: the bitmap starts at PSN
//              32 x (floor(first_missing / 32) + offset), first_missing = BTH PSN + 1
//   bytes 2-5  bitmap, big-endian: bit i (least significant first) set = PSN start + i received
//
// 6 bytes keep an ACK's stored headers within the 64 bytes every emulated frame fits. Dissectors
// show the block as bytes after the AETH. An ACK without it (the in-order mode's) has none.
#pragma once

#include <rte_mbuf.h>

#include <cstdint>

namespace fe::dp {

inline constexpr uint32_t kSackBytes = 6;
inline constexpr uint32_t kSackBlockPackets = 32;

struct SackBlock {
  uint32_t base_psn = 0;  // a multiple of kSackBlockPackets, at or above first_missing's block
  uint32_t received = 0;  // bit i: PSN base_psn + i is at the receiver
};

// The block's 6 bytes into out, for an ACK whose first missing PSN is first_missing.
void WriteSack(const SackBlock& s, uint32_t first_missing, uint8_t* out);
// The block of an acknowledge packet whose first missing PSN is first_missing, or false when it
// carries none.
bool ReadSack(const rte_mbuf* m, uint32_t first_missing, SackBlock* s);

}  // namespace fe::dp
