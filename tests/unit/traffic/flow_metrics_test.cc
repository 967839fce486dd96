#include "traffic/flow_metrics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace fe {
namespace {

TEST(NearestRankTest, MatchesTheTextbookExamples) {
  // The worked examples of the nearest-rank method (e.g. Wikipedia, "Percentile").
  const std::vector<int> a = {15, 20, 35, 40, 50};
  EXPECT_EQ(NearestRankPercentile<int>(a, 5), 15);
  EXPECT_EQ(NearestRankPercentile<int>(a, 30), 20);
  EXPECT_EQ(NearestRankPercentile<int>(a, 40), 20);
  EXPECT_EQ(NearestRankPercentile<int>(a, 50), 35);
  EXPECT_EQ(NearestRankPercentile<int>(a, 100), 50);
  const std::vector<int> b = {3, 6, 7, 8, 8, 10, 13, 15, 16, 20};
  EXPECT_EQ(NearestRankPercentile<int>(b, 25), 7);
  EXPECT_EQ(NearestRankPercentile<int>(b, 50), 8);
  EXPECT_EQ(NearestRankPercentile<int>(b, 75), 15);
  EXPECT_EQ(NearestRankPercentile<int>(b, 100), 20);
}

TEST(NearestRankTest, ExactRanksAreNotPushedUpByRounding) {
  // 0.95 x 20 is 19 exactly, but in floating point it can come out as 19.000000000000004 and a
  // ceil() would pick rank 20. Ranks 1..20 hold the values 1..20.
  std::vector<int> v(20);
  for (int i = 0; i < 20; ++i) v[i] = i + 1;
  EXPECT_EQ(NearestRankPercentile<int>(v, 95), 19);
  EXPECT_EQ(NearestRankPercentile<int>(v, 5), 1);
  EXPECT_EQ(NearestRankPercentile<int>(v, 0), 1);
}

FlowRecord Record(uint32_t id, uint64_t size_bytes, int64_t fct_ns, int64_t ideal_ns) {
  return FlowRecord{.id = id,
                    .src_host = id,
                    .dst_host = id + 1,
                    .size_bytes = size_bytes,
                    .start = Time::FromNs(100),
                    .finish = Time::FromNs(100 + fct_ns),
                    .ideal_fct = Time::FromNs(ideal_ns)};
}

TEST(FlowMetricsTest, SummaryOfAHandMadeSet) {
  FlowMetrics m;
  // FCTs 1..100 us, ideal 1 us each, so slowdown i for flow i.
  for (uint32_t i = 1; i <= 100; ++i) {
    FlowRecord r = Record(i, 1000 * i, 1000 * i, 1000);
    r.cnps_received = 2;
    r.retransmitted_packets = i % 2;
    m.Add(r);
  }
  const FlowSummary s = m.Summarize();
  EXPECT_EQ(s.flows_completed, 100u);
  EXPECT_EQ(s.bytes_completed, 1000u * 5050);  // 1000 x (1 + ... + 100)
  EXPECT_EQ(s.cnps_received, 200u);
  EXPECT_EQ(s.retransmitted_packets, 50u);
  EXPECT_EQ(s.fct.count, 100u);
  EXPECT_EQ(s.fct.p50, Time::FromUs(50));
  EXPECT_EQ(s.fct.p95, Time::FromUs(95));
  EXPECT_EQ(s.fct.p99, Time::FromUs(99));
  EXPECT_EQ(s.fct.max, Time::FromUs(100));
  EXPECT_EQ(s.slowdown.count, 100u);
  EXPECT_EQ(s.slowdown.p50, 50.0);
  EXPECT_EQ(s.slowdown.max, 100.0);

  // Sizes 1 KB..100 KB: 9 flows below 10 KB (slowdowns 1..9), 90 in [10 KB, 100 KB)
  // (10..99), one at exactly 100 KB (100), none from 1 MB.
  ASSERT_EQ(s.slowdown_by_size.size(), 4u);
  const SizeBucketSlowdown& small = s.slowdown_by_size[0];
  EXPECT_EQ(small.lower_bytes, 0u);
  EXPECT_EQ(small.upper_bytes, 10000u);
  EXPECT_EQ(small.slowdown.count, 9u);
  EXPECT_EQ(small.slowdown.p50, 5.0);  // rank ceil(4.5) = 5 of 1..9
  EXPECT_EQ(small.slowdown.max, 9.0);
  const SizeBucketSlowdown& medium = s.slowdown_by_size[1];
  EXPECT_EQ(medium.slowdown.count, 90u);
  EXPECT_EQ(medium.slowdown.p50, 54.0);  // rank 45 of 10..99
  EXPECT_EQ(medium.slowdown.p95, 95.0);  // rank ceil(85.5) = 86
  EXPECT_EQ(medium.slowdown.p99, 99.0);  // rank ceil(89.1) = 90
  const SizeBucketSlowdown& large = s.slowdown_by_size[2];
  EXPECT_EQ(large.lower_bytes, 100000u);
  EXPECT_EQ(large.upper_bytes, 1000000u);
  EXPECT_EQ(large.slowdown.count, 1u);
  EXPECT_EQ(large.slowdown.p50, 100.0);
  const SizeBucketSlowdown& huge = s.slowdown_by_size[3];
  EXPECT_EQ(huge.lower_bytes, 1000000u);
  EXPECT_EQ(huge.upper_bytes, 0u);
  EXPECT_EQ(huge.slowdown.count, 0u);
}

TEST(FlowMetricsTest, SlowdownIsFctOverIdealAndSkipsUnknownIdeal) {
  FlowMetrics m;
  m.Add(Record(1, 500, 3000, 2000));  // 1.5
  m.Add(Record(2, 500, 9000, 0));     // ideal unknown: FCT only
  const FlowSummary s = m.Summarize();
  EXPECT_EQ(s.fct.count, 2u);
  EXPECT_EQ(s.fct.max, Time::FromNs(9000));
  EXPECT_EQ(s.slowdown.count, 1u);
  EXPECT_DOUBLE_EQ(s.slowdown.p50, 1.5);
  EXPECT_EQ(s.slowdown_by_size[0].slowdown.count, 1u);
}

TEST(FlowMetricsTest, CustomBucketEdges) {
  FlowMetrics m;
  m.Add(Record(1, 99, 100, 100));
  m.Add(Record(2, 100, 200, 100));
  const uint64_t edges[] = {100};
  const FlowSummary s = m.Summarize(edges);
  ASSERT_EQ(s.slowdown_by_size.size(), 2u);
  EXPECT_EQ(s.slowdown_by_size[0].slowdown.max, 1.0);
  EXPECT_EQ(s.slowdown_by_size[1].slowdown.max, 2.0);
}

TEST(FlowMetricsTest, EmptyMetricsGiveZeroCounts) {
  const FlowSummary s = FlowMetrics().Summarize();
  EXPECT_EQ(s.flows_completed, 0u);
  EXPECT_EQ(s.fct.count, 0u);
  EXPECT_EQ(s.fct.max, Time::Zero());
  EXPECT_EQ(s.slowdown.count, 0u);
  EXPECT_EQ(s.slowdown_by_size.size(), 4u);
}

TEST(FlowMetricsTest, ResultsDoNotDependOnCompletionOrder) {
  std::vector<FlowRecord> records;
  for (uint32_t i = 0; i < 50; ++i)
    records.push_back(Record(i, 37 * i * i, 1 + (i * 7919) % 97, 3));
  FlowMetrics forward, backward;
  for (const FlowRecord& r : records) forward.Add(r);
  for (auto it = records.rbegin(); it != records.rend(); ++it) backward.Add(*it);
  EXPECT_EQ(forward.SortedRecords(), backward.SortedRecords());
  EXPECT_EQ(forward.SortedRecords(), records);  // ids were added ascending
  const FlowSummary a = forward.Summarize(), b = backward.Summarize();
  EXPECT_EQ(a.fct.p50, b.fct.p50);
  EXPECT_EQ(a.fct.p99, b.fct.p99);
  EXPECT_EQ(a.slowdown.p95, b.slowdown.p95);
  for (size_t k = 0; k < a.slowdown_by_size.size(); ++k) {
    EXPECT_EQ(a.slowdown_by_size[k].slowdown.p50, b.slowdown_by_size[k].slowdown.p50);
  }
}

TEST(FlowMetricsTest, RecordFromFlowCopiesTheFlow) {
  const Flow f{.id = 4, .src_host = 1, .dst_host = 2, .size_bytes = 10, .start = Time::FromNs(5)};
  const FlowRecord r = MakeFlowRecord(f, Time::FromNs(25), Time::FromNs(10));
  EXPECT_EQ(r.id, 4u);
  EXPECT_EQ(r.src_host, 1u);
  EXPECT_EQ(r.dst_host, 2u);
  EXPECT_EQ(r.size_bytes, 10u);
  EXPECT_EQ(r.fct(), Time::FromNs(20));
  EXPECT_EQ(r.ideal_fct, Time::FromNs(10));
}

}  // namespace
}  // namespace fe
