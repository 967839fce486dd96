#include "congestion/egress_scheduler.h"

#include <bit>
#include <string>

namespace fe::cong {
namespace {

constexpr int64_t kMaxQuantumBytes = int64_t{1} << 24;

// The first queue of `mask` after `from`, wrapping around; mask must not be empty.
uint8_t NextInMask(uint8_t mask, uint8_t from) {
  const unsigned rotated = ((unsigned{mask} | (unsigned{mask} << kNumPriorities)) >> (from + 1));
  return static_cast<uint8_t>((from + 1 + std::countr_zero(rotated)) % kNumPriorities);
}

}  // namespace

StatusOr<EgressSchedulerConfig> Compile(const EgressSchedulerParams& params) {
  EgressSchedulerConfig config;
  for (int i = 0; i < kNumPriorities; ++i) {
    const EgressQueueParams& q = params.queues[i];
    if (q.strict) {
      config.strict_mask |= static_cast<uint8_t>(1u << i);
      continue;
    }
    if (q.quantum_bytes < 1 || q.quantum_bytes > kMaxQuantumBytes) {
      return Status::Error("queues[" + std::to_string(i) + "].quantum_bytes (" +
                           std::to_string(q.quantum_bytes) + ") outside [1, 2^24]");
    }
    config.dwrr_mask |= static_cast<uint8_t>(1u << i);
    config.quantum_bytes[i] = static_cast<uint32_t>(q.quantum_bytes);
  }
  return config;
}

int EgressScheduler::Pick(const EgressSchedulerConfig& config, uint8_t eligible_mask,
                          const std::array<uint32_t, kNumPriorities>& head_bytes) {
  const unsigned strict = eligible_mask & config.strict_mask;
  if (strict != 0) return std::bit_width(strict) - 1;
  const uint8_t dwrr = eligible_mask & config.dwrr_mask;
  // Ineligible DWRR queues keep no credit for later (only those holding some need the reset).
  for (unsigned idle = credited_mask_ & ~dwrr & 0xFFu; idle != 0; idle &= idle - 1) {
    deficit_bytes_[std::countr_zero(idle)] = 0;
  }
  credited_mask_ &= dwrr;
  if (dwrr == 0) return -1;
  if (((dwrr >> current_) & 1) == 0) {
    current_ = NextInMask(dwrr, current_);
    credited_ = false;
  }
  // Terminates: every pass over the eligible queues credits each of them a quantum >= 1.
  while (true) {
    if (!credited_) {
      deficit_bytes_[current_] += config.quantum_bytes[current_];
      credited_ = true;
      credited_mask_ |= static_cast<uint8_t>(1u << current_);
    }
    if (head_bytes[current_] <= deficit_bytes_[current_]) {
      deficit_bytes_[current_] -= head_bytes[current_];
      return current_;
    }
    current_ = NextInMask(dwrr, current_);
    credited_ = false;
  }
}

}  // namespace fe::cong
