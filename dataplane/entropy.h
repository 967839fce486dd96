// RoCEv2 entropy: the UDP source port is the only field of a QP's packets that switches hash and a
// NIC may vary, so spreading one QP over several paths means giving its packets several source
// ports. A QP with `values` entropy values sends `packets_per_value` consecutive PSNs on each and
// moves to the next in turn (round-robin; 1 packet per value sprays every packet). The values are
// consecutive ports after the QP's own, within the dynamic range 49152-65535 that RoCEv2 source
// ports come from. A packet's port follows from its PSN, so a resend takes its original's path.
#pragma once

#include <cstdint>

namespace fe::dp {

inline constexpr uint32_t kDynamicPortBase = 0xC000;
inline constexpr uint32_t kMaxEntropyValues = 0x4000;  // ports in the dynamic range

struct Entropy {
  uint32_t values = 1;  // 1: every packet on the QP's own port, as RC NICs send by default
  uint32_t packets_per_value = 1;
};

// The UDP source port of PSN `psn` of a QP whose own port is qp_port.
inline uint16_t EntropyPort(uint16_t qp_port, uint32_t psn, const Entropy& e) {
  if (e.values <= 1) return qp_port;
  const uint32_t value = (psn / e.packets_per_value) % e.values;
  return static_cast<uint16_t>(kDynamicPortBase | ((qp_port + value) & (kMaxEntropyValues - 1)));
}

}  // namespace fe::dp
