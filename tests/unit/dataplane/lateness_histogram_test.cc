#include "dataplane/realtime/lateness_histogram.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace fe::dp {
namespace {

// Every bucket covers a contiguous range, the ranges tile [0, 2^64) in order, and no bucket's
// width exceeds 1/32 of its lower bound (the documented relative error) above the exact region.
TEST(LatenessHistogramTest, BucketsTileTheLineWithBoundedWidth) {
  uint64_t next = 0;
  for (int b = 0; b < LatenessHistogram::kNumBuckets; ++b) {
    const uint64_t upper = LatenessHistogram::BucketUpperNs(b);
    ASSERT_EQ(LatenessHistogram::BucketOf(next), b) << "lower bound of bucket " << b;
    ASSERT_EQ(LatenessHistogram::BucketOf(upper), b) << "upper bound of bucket " << b;
    if (next >= 64) {
      ASSERT_LE(upper - next + 1, next / 32) << "bucket " << b;
    }
    if (b + 1 < LatenessHistogram::kNumBuckets) next = upper + 1;
  }
  EXPECT_EQ(LatenessHistogram::BucketUpperNs(LatenessHistogram::kNumBuckets - 1), UINT64_MAX);
}

// 1..10000 ns once each: the nearest-rank p50 is 5000 and p99 is 9900 (ceil(q * n)-th value).
// The histogram may answer up to 1/32 above, never below.
TEST(LatenessHistogramTest, QuantilesOfAUniformRampAreWithinOneBucket) {
  LatenessHistogram h;
  for (int64_t ns = 1; ns <= 10000; ++ns) h.Record(Time::FromNs(ns));
  EXPECT_EQ(h.count(), 10000u);
  EXPECT_EQ(h.max_ns(), 10000u);
  EXPECT_EQ(h.late_over_1us(), 9000u);  // 1001..10000
  EXPECT_GE(h.QuantileNs(0.5), 5000u);
  EXPECT_LE(h.QuantileNs(0.5), 5000u + 5000u / 32);
  EXPECT_GE(h.QuantileNs(0.99), 9900u);
  EXPECT_LE(h.QuantileNs(0.99), 9900u + 9900u / 32);
  EXPECT_EQ(h.QuantileNs(1.0), 10000u);  // capped by the exact maximum
}

TEST(LatenessHistogramTest, ExactBelow64NsAndNegativeCountsAsOnTime) {
  LatenessHistogram h;
  h.Record(Time::FromPs(-5000));  // cannot happen in the loop; recorded as 0, not wrapped
  for (int64_t ns = 1; ns < 64; ++ns) h.Record(Time::FromNs(ns));
  EXPECT_EQ(h.QuantileNs(0.0), 0u);
  EXPECT_EQ(h.QuantileNs(0.5), 31u);  // 64 values 0..63: the 32nd is 31
  EXPECT_EQ(h.late_over_1us(), 0u);
}

TEST(LatenessHistogramTest, MergeAddsCountsAndKeepsTheLargerMax) {
  LatenessHistogram a, b;
  for (int i = 0; i < 3; ++i) a.Record(Time::FromNs(10));
  b.Record(Time::FromUs(5));
  a.Merge(b);
  EXPECT_EQ(a.count(), 4u);
  EXPECT_EQ(a.max_ns(), 5000u);
  EXPECT_EQ(a.late_over_1us(), 1u);
  EXPECT_EQ(a.QuantileNs(0.75), 10u);
  a.Reset();
  EXPECT_EQ(a.count(), 0u);
  EXPECT_EQ(a.QuantileNs(0.5), 0u);
}

}  // namespace
}  // namespace fe::dp
