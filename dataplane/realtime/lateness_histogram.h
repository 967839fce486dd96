// How late real-time events ran against their due times. Log-linear buckets (exact below 64 ns,
// then 32 buckets per power of two, so a quantile is off by at most 1/32 = 3.1%, always upwards)
// in a fixed array: recording is a few instructions and never allocates.
#pragma once

#include <array>
#include <cstdint>

#include "core/units.h"

namespace fe::dp {

class LatenessHistogram {
 public:
  void Record(Time lateness) {
    const uint64_t ns = lateness.ps() > 0 ? static_cast<uint64_t>(lateness.ps()) / 1000 : 0;
    ++buckets_[BucketOf(ns)];
    ++count_;
    if (ns > kLateNs) ++late_;
    if (ns > max_ns_) max_ns_ = ns;
  }
  // Adds another histogram's counts (per-interval histograms into the run's).
  void Merge(const LatenessHistogram& other);
  void Reset() { *this = LatenessHistogram(); }

  uint64_t count() const { return count_; }
  uint64_t max_ns() const { return max_ns_; }
  // Events that ran more than 1 us late.
  uint64_t late_over_1us() const { return late_; }
  // The smallest bucket bound that at least q of the events do not exceed (nearest rank), in ns;
  // 0 when empty. Never below the true quantile, at most 1/32 above it.
  uint64_t QuantileNs(double q) const;

  // Bucket layout, public for tests.
  static constexpr int kSubBits = 5;                        // 32 buckets per power of two
  static constexpr uint64_t kLinearLimit = 2u << kSubBits;  // 64: exact below
  static constexpr int kNumBuckets = static_cast<int>(kLinearLimit) + (64 - kSubBits - 1) * 32;
  static int BucketOf(uint64_t ns) {
    if (ns < kLinearLimit) return static_cast<int>(ns);
    const int msb = 63 - __builtin_clzll(ns);  // >= kSubBits + 1
    const int shift = msb - kSubBits;
    const auto sub = static_cast<int>((ns >> shift) & ((1u << kSubBits) - 1));
    return static_cast<int>(kLinearLimit) + (shift - 1) * (1 << kSubBits) + sub;
  }
  // Largest value that falls into bucket b.
  static uint64_t BucketUpperNs(int b);
  uint64_t bucket_count(int b) const { return buckets_[b]; }

 private:
  static constexpr uint64_t kLateNs = 1000;
  std::array<uint64_t, kNumBuckets> buckets_{};
  uint64_t count_ = 0;
  uint64_t late_ = 0;
  uint64_t max_ns_ = 0;
};

}  // namespace fe::dp
