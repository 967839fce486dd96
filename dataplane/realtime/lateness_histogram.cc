#include "dataplane/realtime/lateness_histogram.h"

#include <cmath>

namespace fe::dp {

void LatenessHistogram::Merge(const LatenessHistogram& other) {
  for (int b = 0; b < kNumBuckets; ++b) buckets_[b] += other.buckets_[b];
  count_ += other.count_;
  late_ += other.late_;
  if (other.max_ns_ > max_ns_) max_ns_ = other.max_ns_;
}

uint64_t LatenessHistogram::BucketUpperNs(int b) {
  if (b < static_cast<int>(kLinearLimit)) return static_cast<uint64_t>(b);
  const int rel = b - static_cast<int>(kLinearLimit);
  const int shift = rel / (1 << kSubBits) + 1;
  const uint64_t sub = static_cast<uint64_t>(rel % (1 << kSubBits));
  const uint64_t lower = ((uint64_t{1} << kSubBits) | sub) << shift;
  return lower + (uint64_t{1} << shift) - 1;
}

uint64_t LatenessHistogram::QuantileNs(double q) const {
  if (count_ == 0) return 0;
  // Nearest rank: the ceil(q * n)-th smallest value (at least the first).
  auto rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(count_)));
  if (rank == 0) rank = 1;
  uint64_t seen = 0;
  for (int b = 0; b < kNumBuckets; ++b) {
    seen += buckets_[b];
    if (seen >= rank) {
      const uint64_t upper = BucketUpperNs(b);
      return upper < max_ns_ ? upper : max_ns_;
    }
  }
  return max_ns_;
}

}  // namespace fe::dp
