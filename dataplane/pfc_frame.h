// IEEE 802.1Qbb priority flow control frames: MAC-control frames (EtherType 0x8808, opcode
// 0x0101) sent to the reserved multicast 01:80:C2:00:00:01, carrying a class-enable vector and,
// per priority, a pause time in quanta of 512 bit times. The frame is 60 bytes on the wire before
// the FCS (zero padding after the eight quanta), the Ethernet minimum.
//
// MAC-control frames end at the MAC that receives them: the egress port of the link delivers
// them to its reverse direction, never to the switch or NIC behind it.
#pragma once

#include <rte_mbuf.h>

#include <array>
#include <cstdint>
#include <optional>

#include "congestion/dscp_map.h"

namespace fe::dp {

inline constexpr uint16_t kMacControlEtherType = 0x8808;
inline constexpr uint16_t kPfcOpcode = 0x0101;
inline constexpr uint32_t kPfcFrameBytesNoFcs = 60;

struct PfcFrame {
  uint8_t class_enable = 0;  // bit p: quanta[p] applies to priority p
  std::array<uint16_t, cong::kNumPriorities> quanta{};
};

// Writes the frame into m (which must be empty); src_mac is the sending port's address.
// Returns false if the mbuf has no room.
bool WritePfcFrame(rte_mbuf* m, const uint8_t src_mac[6], const PfcFrame& frame);

// True when m's EtherType is MAC control (any opcode). Inline: every frame arriving over a link
// is tested.
inline bool IsMacControlFrame(const rte_mbuf* m) {
  if (rte_pktmbuf_data_len(m) < 14) return false;
  const auto* p = rte_pktmbuf_mtod(m, const uint8_t*);
  return p[12] == (kMacControlEtherType >> 8) && p[13] == (kMacControlEtherType & 0xff);
}

// The PFC frame in m, or nullopt for a runt or another MAC-control opcode.
std::optional<PfcFrame> ParsePfcFrame(const rte_mbuf* m);

}  // namespace fe::dp
