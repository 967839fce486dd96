#include "traffic/kv_metrics.h"

#include <gtest/gtest.h>

#include <vector>

namespace fe {
namespace {

// Request r of 1000 arrives at 0, is prefilled from r us to r + 10 us (so it queued r us) and
// sends one message delivered at r + 10 + (r + 1) us: its transfer takes r + 1 us.
Workload ThousandRequests(std::vector<MessageOutcome>* outcomes) {
  Workload w;
  w.jobs.push_back(Job{"serve", "kv_cache", 26});
  for (uint32_t r = 0; r < 1000; ++r) {
    KvRequest q;
    q.id = r;
    q.arrival = Time::Zero();
    q.prefill_start = Time::FromUs(r);
    q.prefill_done = Time::FromUs(r + 10);
    q.kv_bytes = 3000;
    q.reused_bytes = 1000;
    w.requests.push_back(q);
    w.Add(Flow{.src_host = 0, .dst_host = 1, .size_bytes = 2000, .start = q.prefill_done}, {},
          Time::Zero(), 0, kNoIndex, kNoIndex, r);
    outcomes->push_back(
        MessageOutcome{q.prefill_done, Time::FromUs(2 * r + 11), Time::FromUs(2 * r + 12)});
  }
  return w;
}

TEST(KvMetricsTest, RecordsSplitTheTimeIntoQueuePrefillAndTransfer) {
  std::vector<MessageOutcome> outcomes;
  const Workload w = ThousandRequests(&outcomes);
  const std::vector<KvRequestRecord> records = KvRequestRecords(w, outcomes);
  ASSERT_EQ(records.size(), 1000u);
  const KvRequestRecord& r = records[30];
  EXPECT_EQ(r.messages, 1u);
  EXPECT_EQ(r.sent_bytes, 2000u);
  EXPECT_EQ(r.kv_ready, Time::FromUs(71));
  EXPECT_EQ(r.queue(), Time::FromUs(30));
  EXPECT_EQ(r.prefill(), Time::FromUs(10));
  EXPECT_EQ(r.transfer(), Time::FromUs(31));
  EXPECT_DOUBLE_EQ(r.queueing_share(), 30.0 / 71.0);
  EXPECT_DOUBLE_EQ(records[0].queueing_share(), 0.0);
}

// Nearest rank over n = 1000 transfers of 1..1000 us: p50 is rank 500, p99 rank 990, p99.9 rank
// 999.
TEST(KvMetricsTest, PercentilesAreNearestRank) {
  std::vector<MessageOutcome> outcomes;
  const Workload w = ThousandRequests(&outcomes);
  const std::vector<KvJobSummary> s = SummarizeKv(KvRequestRecords(w, outcomes));
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].requests, 1000u);
  EXPECT_EQ(s[0].completed, 1000u);
  EXPECT_EQ(s[0].kv_bytes, 3'000'000u);
  EXPECT_EQ(s[0].reused_bytes, 1'000'000u);
  EXPECT_EQ(s[0].sent_bytes, 2'000'000u);
  ASSERT_TRUE(s[0].transfer && s[0].total && s[0].queueing_share);
  EXPECT_EQ(s[0].transfer->p50, Time::FromUs(500));
  EXPECT_EQ(s[0].transfer->p99, Time::FromUs(990));
  EXPECT_EQ(s[0].transfer->p999, Time::FromUs(999));
  EXPECT_EQ(s[0].transfer->max, Time::FromUs(1000));
  // total = 2r + 11 us; the share r / (2r + 11) rises with r.
  EXPECT_EQ(s[0].total->p50, Time::FromUs(2 * 499 + 11));
  EXPECT_DOUBLE_EQ(s[0].queueing_share->p999, 998.0 / (2 * 998 + 11));
}

TEST(KvMetricsTest, AnUndeliveredMessageLeavesItsRequestOutOfTheStatistics) {
  std::vector<MessageOutcome> outcomes;
  const Workload w = ThousandRequests(&outcomes);
  outcomes[999].delivered = Time::Infinite();
  const std::vector<KvRequestRecord> records = KvRequestRecords(w, outcomes);
  EXPECT_FALSE(records[999].completed());
  const std::vector<KvJobSummary> s = SummarizeKv(records);
  EXPECT_EQ(s[0].completed, 999u);
  ASSERT_TRUE(s[0].transfer.has_value());
  EXPECT_EQ(s[0].transfer->max, Time::FromUs(999));
  EXPECT_EQ(s[0].sent_bytes, 2'000'000u);  // bytes count every request
}

TEST(KvMetricsTest, NoCompletedRequestGivesNoPercentiles) {
  std::vector<MessageOutcome> outcomes;
  const Workload w = ThousandRequests(&outcomes);
  for (MessageOutcome& o : outcomes) o.delivered = o.completed = Time::Infinite();
  const std::vector<KvJobSummary> s = SummarizeKv(KvRequestRecords(w, outcomes));
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].requests, 1000u);
  EXPECT_EQ(s[0].completed, 0u);
  EXPECT_FALSE(s[0].transfer.has_value());
  EXPECT_FALSE(s[0].total.has_value());
  EXPECT_FALSE(s[0].queueing_share.has_value());
}

TEST(KvMetricsTest, ARequestThatSentNothingHasItsCacheWhenPrefillEnds) {
  Workload w;
  w.jobs.push_back(Job{"serve", "kv_cache", 26});
  KvRequest q;
  q.arrival = Time::FromUs(1);
  q.prefill_start = Time::FromUs(3);
  q.prefill_done = Time::FromUs(5);
  q.kv_bytes = q.reused_bytes = 4096;
  w.requests.push_back(q);
  const std::vector<KvRequestRecord> records = KvRequestRecords(w, {});
  ASSERT_TRUE(records[0].completed());
  EXPECT_EQ(records[0].transfer(), Time::Zero());
  EXPECT_DOUBLE_EQ(records[0].queueing_share(), 0.5);
}

}  // namespace
}  // namespace fe
