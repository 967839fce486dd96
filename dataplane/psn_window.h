// Bounded windows of PSNs, one bit each, for the QPs of one NIC that need one at the moment: the
// receiver's record of what arrived past its first missing PSN, and the sender's of what the
// receiver selectively acknowledged past its cumulative point. A window spans window_packets
// consecutive PSNs from its owner's base (the first missing one), kept as a ring: PSN p is bit
// p mod window_packets, and the owner clears bits as its base passes them, so a bit above the base
// always means its own PSN. Windows are taken from a pool as a QP's first gap opens and given back
// when it closes, so memory follows the QPs with gaps, not all QPs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fe::dp {

inline constexpr uint32_t kNoWindow = UINT32_MAX;

class PsnWindows {
 public:
  // window_packets: a multiple of 64.
  explicit PsnWindows(uint32_t window_packets)
      : words_(window_packets / 64),
        mask_(window_packets - 1),
        pow2_((window_packets & mask_) == 0) {}

  uint32_t window_packets() const { return words_ * 64; }
  uint32_t Acquire();
  void Release(uint32_t w);

  bool Test(uint32_t w, uint32_t psn) const { return (Word(w, psn) >> (psn % 64)) & 1; }
  void Set(uint32_t w, uint32_t psn) {
    uint64_t& word = Word(w, psn);
    const uint64_t bit = uint64_t{1} << (psn % 64);
    if ((word & bit) != 0) return;
    word |= bit;
    ++set_[w];
  }
  void Clear(uint32_t w, uint32_t psn) {
    uint64_t& word = Word(w, psn);
    const uint64_t bit = uint64_t{1} << (psn % 64);
    if ((word & bit) == 0) return;
    word &= ~bit;
    --set_[w];
  }
  uint32_t set_bits(uint32_t w) const { return set_[w]; }
  // The 64 bits of PSNs psn & ~63 .. (psn & ~63) + 63 as the ring holds them (bits of PSNs
  // outside the owner's window mean other PSNs: the caller masks them).
  uint64_t Block(uint32_t w, uint32_t psn) const { return Word(w, psn); }

 private:
  uint32_t Slot(uint32_t psn) const {
    const uint32_t bit = pow2_ ? (psn & mask_) : psn % (words_ * 64);
    return bit / 64;
  }
  uint64_t& Word(uint32_t w, uint32_t psn) { return bits_[std::size_t{w} * words_ + Slot(psn)]; }
  uint64_t Word(uint32_t w, uint32_t psn) const {
    return bits_[std::size_t{w} * words_ + Slot(psn)];
  }

  uint32_t words_;
  uint32_t mask_;
  bool pow2_;
  std::vector<uint64_t> bits_;  // words_ per window
  std::vector<uint32_t> set_;   // set bits per window
  std::vector<uint32_t> free_;
};

}  // namespace fe::dp
