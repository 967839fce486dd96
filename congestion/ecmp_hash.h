// Hash-based ECMP: a flow's 5-tuple picks one member of an equal-cost group, so all its packets
// take the same path (no reordering) while different flows spread over the group.
//
// Give every switch its own seed (for instance the run seed mixed with the switch's node id).
// With one seed everywhere, a flow's hash is the same at every hop, so an aggregation switch
// re-picks the member index the edge switch picked: the flows reaching one aggregation switch
// all leave by the same up-port and the rest stay idle (hash polarisation). Seeds that differ make
// each hop's choice independent of the last.
#pragma once

#include <cassert>
#include <cstdint>

namespace fe::cong {

namespace ecmp_internal {

// The 64-bit finaliser of MurmurHash3: a bijection in which every input bit flips each output
// bit with probability close to one half.
constexpr uint64_t Mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

}  // namespace ecmp_internal

// The protocol is left out: every flow of this fabric is RoCEv2 over UDP.
constexpr uint32_t EcmpHash(uint32_t src_ip, uint32_t dst_ip, uint16_t src_port, uint16_t dst_port,
                            uint32_t seed) {
  const uint64_t addresses = (uint64_t{src_ip} << 32) | dst_ip;
  const uint64_t ports_and_seed =
      (uint64_t{src_port} << 48) | (uint64_t{dst_port} << 32) | uint64_t{seed};
  // Mix64 is a bijection, so neither half loses a bit before the two are combined.
  const uint64_t h = ecmp_internal::Mix64(addresses ^ ecmp_internal::Mix64(ports_and_seed));
  return static_cast<uint32_t>(h >> 32);
}

// Member in [0, group_size): the hash scaled by the group size (multiply-shift), which needs no
// division; member m owns the hashes in [ceil(m * 2^32 / n), ceil((m + 1) * 2^32 / n)), so the
// members' shares of the hash space differ by at most one value in 2^32.
constexpr uint16_t PickEcmpMember(uint32_t hash, uint16_t group_size) {
  assert(group_size > 0);
  return static_cast<uint16_t>((uint64_t{hash} * group_size) >> 32);
}

}  // namespace fe::cong
