#include "dataplane/ooo_receiver.h"

#include <algorithm>

namespace fe::dp {

namespace {

// The low n bits set (n may be 64 or more).
uint64_t LowBits(uint64_t n) { return n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1; }

}  // namespace

Placement OooReceiver::Place(ReceiverState& r, uint32_t psn, uint32_t packets_total) {
  if (psn < r.expected_psn) return Placement::kDuplicate;
  if (psn - r.expected_psn >= windows_.window_packets()) return Placement::kBeyond;
  if (psn != r.expected_psn) {
    if (r.reorder_window == kNoWindow) r.reorder_window = windows_.Acquire();
    if (windows_.Test(r.reorder_window, psn)) return Placement::kDuplicate;
    windows_.Set(r.reorder_window, psn);
    return Placement::kPlaced;
  }
  ++r.expected_psn;
  if (r.reorder_window == kNoWindow) return Placement::kPlaced;
  // The gap closed: run over what arrived past it.
  while (r.expected_psn < packets_total && windows_.Test(r.reorder_window, r.expected_psn)) {
    windows_.Clear(r.reorder_window, r.expected_psn);
    ++r.expected_psn;
  }
  if (windows_.set_bits(r.reorder_window) == 0) {
    windows_.Release(r.reorder_window);
    r.reorder_window = kNoWindow;
  }
  return Placement::kPlaced;
}

SackBlock OooReceiver::Sack(const ReceiverState& r, uint32_t psn) const {
  // The block of the packet acknowledged, or for a duplicate the first missing PSN's: what the
  // sender may still lack.
  SackBlock s;
  s.base_psn = std::max(psn, r.expected_psn) & ~(kSackBlockPackets - 1);
  const uint64_t below = r.expected_psn > s.base_psn ? r.expected_psn - s.base_psn : 0;
  uint64_t received = LowBits(below);
  if (r.reorder_window != kNoWindow) {
    // The ring's word holds, for the block's PSNs outside [expected, expected + window), bits of
    // other PSNs: only the ones inside count.
    const uint64_t window_end = uint64_t{r.expected_psn} + windows_.window_packets();
    const uint64_t inside = LowBits(window_end - s.base_psn);
    const uint64_t ring = windows_.Block(r.reorder_window, s.base_psn) >> (s.base_psn % 64);
    received |= ring & inside & ~LowBits(below);
  }
  s.received = static_cast<uint32_t>(received);
  return s;
}

}  // namespace fe::dp
