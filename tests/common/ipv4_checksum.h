// RFC 791's IPv4 header checksum computed from scratch, independently of the emulator's encoder:
// the one's complement of the one's-complement sum of the 20-byte header's 16-bit words, the
// checksum field (bytes 10-11) taken as zero.
#pragma once

#include <cstdint>

namespace fe::dp::testing {

inline uint16_t Ipv4ChecksumFromScratch(const uint8_t* ip) {
  uint32_t sum = 0;
  for (int i = 0; i < 20; i += 2) {
    if (i != 10) sum += (ip[i] << 8) | ip[i + 1];
  }
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<uint16_t>(~sum);
}

}  // namespace fe::dp::testing
