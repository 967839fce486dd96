// Egress scheduling over a port's eight queues: strict-priority queues first (the highest index
// wins), then deficit weighted round robin among the others (Shreedhar and Varghese, "Efficient
// Fair Queueing Using Deficit Round Robin", 1995): each visit credits a queue its quantum, it
// sends while its head packet fits its deficit, and over time the queues' byte shares follow
// their quanta. A DWRR queue that is not eligible (empty or PFC-paused) when a pick is made loses
// its deficit, as DRR does for an empty queue: a paused queue banks no credit to burst with later.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "congestion/dscp_map.h"
#include "core/status.h"

namespace fe::cong {

struct EgressQueueParams {
  bool strict = false;
  // DWRR weight: bytes credited per round. At or above the largest frame, Pick finishes within
  // one pass over the queues.
  int64_t quantum_bytes = 9216;
};

struct EgressSchedulerParams {
  // Queue i holds priority i. Default: queues 6 (CNPs) and 7 strict, the rest DWRR with equal
  // quanta.
  std::array<EgressQueueParams, kNumPriorities> queues = {
      {{}, {}, {}, {}, {}, {}, {.strict = true}, {.strict = true}}};
};

struct EgressSchedulerConfig {
  uint8_t strict_mask = 0;
  uint8_t dwrr_mask = 0;
  std::array<uint32_t, kNumPriorities> quantum_bytes{};
};

// Refuses a DWRR quantum outside [1, 2^24], naming the field.
StatusOr<EgressSchedulerConfig> Compile(const EgressSchedulerParams& params);

namespace egress_internal {

// The first queue of `mask` after `from`, wrapping around; mask must not be empty.
inline uint8_t NextInMask(uint8_t mask, uint8_t from) {
  const unsigned rotated = ((unsigned{mask} | (unsigned{mask} << kNumPriorities)) >> (from + 1));
  return static_cast<uint8_t>((from + 1 + std::countr_zero(rotated)) % kNumPriorities);
}

}  // namespace egress_internal

// Round-robin state of one egress port. The queues' deficits are kept by the caller, where it
// keeps each queue's state (a port: in the queue's own line, which a pick reads anyway for the
// head's size, so that the round robin adds no line of its own to a packet's dequeue).
class EgressScheduler {
 public:
  // eligible_mask: bit i set when queue i has a packet and may send (not paused). head_bytes[i]:
  // size of queue i's head packet, read for eligible DWRR queues only. deficits[i]: queue i's
  // deficit in bytes, a uint32_t&, zero to start with. Returns the queue to serve next, or -1 if
  // none is eligible. The choice is committed: the caller sends that head packet.
  template <typename Deficits>
  int Pick(const EgressSchedulerConfig& config, uint8_t eligible_mask,
           const std::array<uint32_t, kNumPriorities>& head_bytes, Deficits&& deficits);

 private:
  uint8_t credited_mask_ = 0;  // queues whose deficit may be non-zero
  uint8_t current_ = 0;        // DWRR queue being visited
  bool credited_ = false;      // current_ has received its quantum for this visit
};

// Inline: an egress port picks for every packet it sends.
template <typename Deficits>
int EgressScheduler::Pick(const EgressSchedulerConfig& config, uint8_t eligible_mask,
                          const std::array<uint32_t, kNumPriorities>& head_bytes,
                          Deficits&& deficits) {
  const unsigned strict = eligible_mask & config.strict_mask;
  if (strict != 0) return std::bit_width(strict) - 1;
  const uint8_t dwrr = eligible_mask & config.dwrr_mask;
  // Ineligible DWRR queues keep no credit for later (only those holding some need the reset).
  for (unsigned idle = credited_mask_ & ~dwrr & 0xFFu; idle != 0; idle &= idle - 1) {
    deficits[std::countr_zero(idle)] = 0;
  }
  credited_mask_ &= dwrr;
  if (dwrr == 0) return -1;
  if (((dwrr >> current_) & 1) == 0) {
    current_ = egress_internal::NextInMask(dwrr, current_);
    credited_ = false;
  }
  // Terminates: every pass over the eligible queues credits each of them a quantum >= 1.
  while (true) {
    uint32_t& deficit = deficits[current_];
    if (!credited_) {
      deficit += config.quantum_bytes[current_];
      credited_ = true;
      credited_mask_ |= static_cast<uint8_t>(1u << current_);
    }
    if (head_bytes[current_] <= deficit) {
      deficit -= head_bytes[current_];
      return current_;
    }
    current_ = egress_internal::NextInMask(dwrr, current_);
    credited_ = false;
  }
}

}  // namespace fe::cong
