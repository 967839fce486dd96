// The emulated fabric is one routed L3 network: host i has IPv4 198.18.0.0 + 1 + i (inside the
// RFC 2544 benchmarking range 198.18.0.0/15, which no real network announces) and a locally
// administered MAC 02:fe:00 + i. Switches route on the destination IP.
#pragma once

#include <cstdint>

namespace fe::dp {

inline constexpr uint32_t kFabricNetwork = 0xC6120000;  // 198.18.0.0
inline constexpr uint32_t kFabricPrefixLen = 15;
inline constexpr uint32_t kMaxHosts = (1u << (32 - kFabricPrefixLen)) - 2;

inline constexpr uint32_t HostIp(uint32_t host) { return kFabricNetwork + 1 + host; }
// Host index for an address in the fabric network, or UINT32_MAX if it is not one.
inline constexpr uint32_t HostOfIp(uint32_t ip) {
  const uint32_t off = ip - kFabricNetwork - 1;
  return off < kMaxHosts ? off : UINT32_MAX;
}
inline void HostMac(uint32_t host, uint8_t out[6]) {
  out[0] = 0x02;
  out[1] = 0xfe;
  out[2] = 0x00;
  out[3] = static_cast<uint8_t>(host >> 16);
  out[4] = static_cast<uint8_t>(host >> 8);
  out[5] = static_cast<uint8_t>(host);
}

}  // namespace fe::dp
