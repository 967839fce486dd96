// Per-operation time and bandwidths from made-up outcomes, against nccl-tests' definitions.
#include "traffic/collective/metrics.h"

#include <gtest/gtest.h>

#include <vector>

#include "traffic/collective/collective.h"

namespace fe {
namespace {

TEST(CollectiveMetricsTest, BusBandwidthFactorsAreNcclTests) {
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveKind::kAllReduce, 8), 2.0 * 7 / 8);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveKind::kAllGather, 8), 7.0 / 8);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveKind::kReduceScatter, 8), 7.0 / 8);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveKind::kAllToAll, 8), 7.0 / 8);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveKind::kBroadcast, 8), 1.0);
}

// Two AllReduces of 1 MB over 4 ranks: the first's messages start from 10 us and the last lands
// at 110 us (100 us: algbw 80 Gb/s, busbw 80 x 1.5 = 120 Gb/s); one message of the second never
// arrives, so it has no bandwidth.
TEST(CollectiveMetricsTest, TimeRunsFromTheFirstStartToTheLastDelivery) {
  Workload w;
  CollectiveSpec spec;
  spec.ranks = {0, 1, 2, 3};
  spec.size_bytes = 1000000;
  ASSERT_TRUE(AppendCollective(spec, {}, Time::Zero(), Time::Zero(), 0, kNoIndex, &w).ok());
  const auto first = static_cast<uint32_t>(w.size());
  ASSERT_TRUE(AppendCollective(spec, {}, Time::Zero(), Time::Zero(), 0, kNoIndex, &w).ok());
  std::vector<MessageOutcome> outcomes(w.size());
  for (uint32_t i = 0; i < first; ++i) {
    outcomes[i].started = Time::FromUs(10 + i);
    outcomes[i].delivered = Time::FromUs(20 + i);
  }
  outcomes[first - 1].delivered = Time::FromUs(110);
  for (uint32_t i = first; i + 1 < w.size(); ++i) {
    outcomes[i].started = Time::FromUs(200);
    outcomes[i].delivered = Time::FromUs(300);
  }
  const std::vector<CollectiveMeasure> m = MeasureCollectives(w, outcomes);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_TRUE(m[0].complete);
  EXPECT_EQ(m[0].start, Time::FromUs(10));
  EXPECT_EQ(m[0].end, Time::FromUs(110));
  EXPECT_NEAR(m[0].algbw_gbps, 80.0, 1e-9);
  EXPECT_NEAR(m[0].busbw_gbps, 120.0, 1e-9);
  EXPECT_FALSE(m[1].complete);
  EXPECT_EQ(m[1].busbw_gbps, 0.0);
}

}  // namespace
}  // namespace fe
