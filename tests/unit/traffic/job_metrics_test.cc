// Iteration timings against closed forms, on outcomes from a network without contention: each
// message is delivered latency + size / rate after it starts, and starts as the workload says
// (its start time, or its last dependency's delivery plus its delay). On such a network a ring
// AllReduce of S bytes over N ranks takes 2(N - 1)(latency + (S / N) / rate) exactly.
#include "traffic/job_metrics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "traffic/training.h"

namespace fe {
namespace {

constexpr uint64_t kMiB = 1 << 20;
const Rate kRate = Rate::FromGbps(100);
const Time kLatency = Time::FromNs(2000);
const Time kForward = Time::FromUs(300);
const Time kBackward = Time::FromUs(600);

std::vector<MessageOutcome> Uncontended(const Workload& w) {
  std::vector<MessageOutcome> out(w.size());
  for (uint32_t i = 0; i < w.size(); ++i) {
    Time start = w.flows[i].start;
    for (const uint32_t d : w.dependencies(i)) {
      start = std::max(start, out[d].delivered + w.delay[i]);
    }
    out[i].started = start;
    out[i].delivered = start + kLatency + kRate.SerializationTime(w.flows[i].size_bytes);
    out[i].completed = out[i].delivered + kLatency;
  }
  return out;
}

TrainingSpec DataParallel(uint32_t ranks, uint32_t buckets, uint64_t bucket_bytes, bool overlap) {
  TrainingSpec s;
  s.layout = {ranks, 1, 1};
  s.rank_hosts.resize(ranks);
  std::iota(s.rank_hosts.begin(), s.rank_hosts.end(), 0u);
  s.gradient_buckets = buckets;
  s.bucket_bytes = bucket_bytes;
  s.overlap = overlap;
  s.iterations = 3;
  s.forward.mean = kForward;
  s.backward.mean = kBackward;
  s.optimizer.mean = Time::FromUs(50);
  s.start = Time::FromUs(10);
  return s;
}

Workload Build(const TrainingSpec& spec) {
  StatusOr<Workload> w = BuildTraining(spec, Job{"train", "training"}, 1);
  EXPECT_TRUE(w.ok()) << w.status().message();
  return w.ok() ? std::move(w).value() : Workload{};
}

// Ring AllReduce on the uncontended network.
Time RingTime(uint32_t n, uint64_t bytes) {
  return (kLatency + kRate.SerializationTime(bytes / n)) * (2 * (n - 1));
}

TEST(JobMetricsTest, WithoutOverlapAnIterationIsComputeThenTheAllReduce) {
  // 4 ranks, one bucket of 2 MiB: 512 KiB slices, one chunk each.
  const Workload w = Build(DataParallel(4, 1, 2 * kMiB, false));
  const std::vector<JobTiming> jobs = JobTimings(w, Uncontended(w));
  ASSERT_EQ(jobs.size(), 1u);
  ASSERT_EQ(jobs[0].iterations.size(), 3u);
  const Time ring = RingTime(4, 2 * kMiB);
  const IterationTiming& first = jobs[0].iterations[0];
  EXPECT_EQ(first.start, Time::FromUs(10));
  EXPECT_EQ(first.time(), kForward + kBackward + ring);
  EXPECT_EQ(first.compute, kForward + kBackward);
  for (uint32_t k = 1; k < 3; ++k) {
    const IterationTiming& t = jobs[0].iterations[k];
    EXPECT_EQ(t.start, jobs[0].iterations[k - 1].end);
    EXPECT_EQ(t.time(), Time::FromUs(50) + kForward + kBackward + ring);
    EXPECT_DOUBLE_EQ(t.communication_share(),
                     static_cast<double>(ring.ps()) / static_cast<double>(t.time().ps()));
  }
  EXPECT_EQ(jobs[0].completed, 3u);
  ASSERT_TRUE(jobs[0].time.has_value());
  EXPECT_EQ(jobs[0].time->p50, Time::FromUs(50) + kForward + kBackward + ring);  // rank 2 of 3
  EXPECT_EQ(jobs[0].time->p99, jobs[0].time->p50);
}

TEST(JobMetricsTest, OverlapShortensTheIterationButNotBelowEitherPart) {
  // 8 buckets of 2 MiB over 4 ranks: communication 8 rings, comparable to the compute.
  const Workload serial = Build(DataParallel(4, 8, 2 * kMiB, false));
  const Workload overlapped = Build(DataParallel(4, 8, 2 * kMiB, true));
  const JobTiming a = JobTimings(serial, Uncontended(serial))[0];
  const JobTiming b = JobTimings(overlapped, Uncontended(overlapped))[0];
  // Concurrent buckets share nothing on this network, so the serial iteration's AllReduces end
  // one ring after the backward; overlapped, the last bucket still starts at the backward's end.
  const Time ring = RingTime(4, 2 * kMiB);
  for (uint32_t k = 0; k < 3; ++k) {
    const Time ta = a.iterations[k].time(), tb = b.iterations[k].time();
    EXPECT_LE(tb, ta);
    EXPECT_GE(tb, std::max(b.iterations[k].compute, ring));
  }
}

TEST(JobMetricsTest, AnUndeliveredMessageLeavesItsIterationAndTheRestIncomplete) {
  const Workload w = Build(DataParallel(4, 1, 2 * kMiB, false));
  std::vector<MessageOutcome> out = Uncontended(w);
  const auto in_second =
      std::find(w.iteration_of.begin(), w.iteration_of.end(), 1u) - w.iteration_of.begin();
  out[in_second].delivered = Time::Infinite();
  const JobTiming job = JobTimings(w, out)[0];
  EXPECT_TRUE(job.iterations[0].completed);
  EXPECT_FALSE(job.iterations[1].completed);
  EXPECT_FALSE(job.iterations[2].completed);
  EXPECT_EQ(job.completed, 1u);
  ASSERT_TRUE(job.time.has_value());
  EXPECT_EQ(job.time->p50, job.iterations[0].time());
}

// A run stopped during the first iteration's AllReduce: that iteration started at the job's
// start and did not end, the two after it never started, and there is no iteration time or
// communication share to give.
TEST(JobMetricsTest, ARunStoppedInTheFirstIterationHasNoFigures) {
  const Workload w = Build(DataParallel(4, 1, 2 * kMiB, false));
  std::vector<MessageOutcome> out = Uncontended(w);
  for (MessageOutcome& o : out) {
    o.delivered = o.completed = Time::Infinite();
    if (o.started > kForward + kBackward + Time::FromUs(10)) o.started = Time::Infinite();
  }
  const JobTiming job = JobTimings(w, out)[0];
  ASSERT_EQ(job.iterations.size(), 3u);
  EXPECT_EQ(job.iterations[0].start, Time::FromUs(10));
  EXPECT_EQ(job.iterations[0].end, Time::Infinite());
  EXPECT_EQ(job.iterations[1].start, Time::Infinite());
  EXPECT_EQ(job.iterations[2].start, Time::Infinite());
  EXPECT_EQ(job.completed, 0u);
  EXPECT_FALSE(job.time.has_value());
  EXPECT_FALSE(job.communication_share.has_value());
}

}  // namespace
}  // namespace fe
