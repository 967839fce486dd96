// The training generator against closed forms that need no network: the 1F1B pipeline's
// compute-only span (m + p - 1) x (f + b), the buckets' start times inside the backward pass, the
// checkpoint's bytes to the byte, and the structure every iteration must have. Times here are
// compute-only (ComputeOnlyStarts): integer picoseconds, so they are compared exactly.
#include "traffic/training.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

#include "traffic/compute_only.h"

namespace fe {
namespace {

constexpr uint64_t kMiB = 1 << 20;
const Time kForward = Time::FromUs(30);
const Time kBackward = Time::FromUs(60);

ComputeTime Fixed(Time t) {
  ComputeTime c;
  c.mean = t;
  return c;
}

TrainingSpec Spec(uint32_t dp, uint32_t tp, uint32_t pp, uint32_t microbatches) {
  TrainingSpec s;
  s.layout = {dp, tp, pp};
  s.rank_hosts.resize(s.layout.ranks());
  std::iota(s.rank_hosts.begin(), s.rank_hosts.end(), 0u);
  s.microbatches = microbatches;
  s.bucket_bytes = 4 * kMiB;
  s.tensor_parallel_bytes = kMiB;
  s.activation_bytes = 2 * kMiB;
  s.forward = Fixed(kForward);
  s.backward = Fixed(kBackward);
  s.start = Time::FromUs(5);
  return s;
}

Workload Build(const TrainingSpec& spec, uint64_t seed = 1) {
  StatusOr<Workload> w = BuildTraining(spec, Job{"train", "training"}, seed);
  EXPECT_TRUE(w.ok()) << w.status().message();
  if (!w.ok()) return {};
  EXPECT_TRUE(CheckDependencies(*w).ok());
  return std::move(w).value();
}

TEST(OneForwardOneBackwardTest, FillsThenAlternatesThenDrains) {
  // Stage 1 of 4 with 5 microbatches: 2 forwards fill the pipeline, then F B pairs, then 2 B.
  const std::vector<PipelineStep> steps = OneForwardOneBackward(1, 4, 5);
  const std::string expected = "F0 F1 F2 B0 F3 B1 F4 B2 B3 B4 ";
  std::string got;
  for (const PipelineStep& s : steps) {
    got += (s.forward ? "F" : "B") + std::to_string(s.microbatch) + " ";
  }
  EXPECT_EQ(got, expected);
  // Fewer microbatches than the fill: all forwards, then all backwards.
  EXPECT_EQ(OneForwardOneBackward(0, 8, 2).size(), 4u);
  EXPECT_TRUE(OneForwardOneBackward(0, 8, 2)[1].forward);
  EXPECT_FALSE(OneForwardOneBackward(0, 8, 2)[2].forward);
}

// GPipe's and 1F1B's closed form: with p stages and m microbatches of equal per-microbatch
// times f and b, the pipeline's compute ends (m + p - 1)(f + b) after it starts. A checkpoint
// every iteration makes the first stage's last backward end the iteration (its write follows).
TEST(TrainingTest, PipelineComputeSpanIsTheBubbleClosedForm) {
  for (const auto& [p, m] :
       std::vector<std::pair<uint32_t, uint32_t>>{{2, 1}, {4, 8}, {4, 3}, {8, 16}, {3, 5}}) {
    TrainingSpec spec = Spec(1, 1, p, m);
    spec.iterations = 3;
    spec.optimizer = Fixed(Time::FromUs(7));
    spec.checkpoint = CheckpointSpec{1, kMiB, {p}};
    spec.rank_hosts = std::vector<uint32_t>(p);
    std::iota(spec.rank_hosts.begin(), spec.rank_hosts.end(), 0u);
    const Workload w = Build(spec);
    ASSERT_EQ(w.iterations.size(), 3u);
    const Time span = (kForward + kBackward) * (m + p - 1);
    EXPECT_EQ(w.iterations[0].compute, span + Time::FromUs(7)) << p << " stages, " << m;
    EXPECT_EQ(w.iterations[1].compute, span + Time::FromUs(7)) << p << " stages, " << m;
  }
}

// Data parallel only, no overlap: every bucket's AllReduce starts when the backward ends, f + b
// after the iteration starts; with overlap bucket b of B starts (b + 1)/B of the way through the
// backward.
TEST(TrainingTest, BucketsStartInsideTheBackwardOnlyWithOverlap) {
  for (const bool overlap : {false, true}) {
    TrainingSpec spec = Spec(4, 1, 1, 1);
    spec.gradient_buckets = 4;
    spec.overlap = overlap;
    const Workload w = Build(spec);
    const std::vector<Time> starts = ComputeOnlyStarts(w);
    ASSERT_EQ(w.ops.size(), 4u);
    std::vector<Time> first(w.ops.size(), Time::Infinite());
    for (uint32_t i = 0; i < w.size(); ++i)
      first[w.op_of[i]] = std::min(first[w.op_of[i]], starts[i]);
    for (uint32_t b = 0; b < 4; ++b) {
      const Time into_backward = overlap ? Time::FromPs(kBackward.ps() * (b + 1) / 4) : kBackward;
      EXPECT_EQ(first[b], spec.start + kForward + into_backward) << "bucket " << b;
      EXPECT_EQ(w.ops[b].size_bytes, spec.bucket_bytes);
      EXPECT_EQ(w.ops[b].ranks, 4u);
    }
  }
}

// The next iteration's forward waits for every bucket at that rank: a message of iteration k + 1
// that waits for iteration k waits for the buckets' AllReduces plus the optimizer step, two
// forwards, a backward and the share of the last backward its bucket needs.
TEST(TrainingTest, NextIterationWaitsForEveryBucket) {
  TrainingSpec spec = Spec(4, 1, 1, 2);
  spec.gradient_buckets = 3;
  spec.iterations = 4;
  const Time optimizer = Time::FromUs(11);
  spec.optimizer = Fixed(optimizer);
  const Workload w = Build(spec);
  std::set<Time> crossing_delays;
  for (uint32_t i = 0; i < w.size(); ++i) {
    std::set<uint32_t> waited_ops;
    for (const uint32_t d : w.dependencies(i)) {
      EXPECT_LE(w.iteration_of[d], w.iteration_of[i]) << "message " << i;
      if (w.iteration_of[d] + 1 == w.iteration_of[i]) waited_ops.insert(w.op_of[d]);
    }
    if (waited_ops.empty()) continue;
    EXPECT_EQ(waited_ops.size(), 3u) << "message " << i << " waits for some buckets only";
    crossing_delays.insert(w.delay[i]);
  }
  std::set<Time> expected;
  for (uint32_t b = 0; b < 3; ++b) {
    expected.insert(optimizer + kForward * 2 + kBackward +
                    Time::FromPs(kBackward.ps() * (b + 1) / 3));
  }
  EXPECT_EQ(crossing_delays, expected);
  EXPECT_EQ(w.iterations[0].compute, (kForward + kBackward) * 2);
  for (uint32_t k = 1; k < 4; ++k) {
    EXPECT_EQ(w.iterations[k].compute, (kForward + kBackward) * 2 + optimizer);
  }
}

TEST(TrainingTest, CheckpointWritesEveryShardToTheStorageHosts) {
  TrainingSpec spec = Spec(2, 2, 2, 4);
  spec.iterations = 5;
  spec.checkpoint = CheckpointSpec{2, 3 * kMiB + 5, {8, 9, 10}};
  const Workload w = Build(spec);
  std::map<uint32_t, uint64_t> received;  // by storage host
  std::map<uint32_t, uint32_t> writes_by_iteration;
  for (uint32_t i = 0; i < w.size(); ++i) {
    const Flow& f = w.flows[i];
    if (f.dst_host < 8) continue;
    received[f.dst_host] += f.size_bytes;
    ++writes_by_iteration[w.iteration_of[i]];
    EXPECT_EQ(w.op_of[i], kNoIndex);
    EXPECT_FALSE(w.dependencies(i).empty()) << "a write waits for its rank's iteration";
  }
  // Iterations 1 and 3 (every 2nd) end with 8 writes; rank r writes to storage r % 3.
  EXPECT_EQ(writes_by_iteration, (std::map<uint32_t, uint32_t>{{1, 8}, {3, 8}}));
  uint64_t total = 0;
  for (const auto& [host, bytes] : received) total += bytes;
  EXPECT_EQ(total, 2 * 8 * spec.checkpoint->shard_bytes);
  EXPECT_EQ(received[8], 2 * 3 * spec.checkpoint->shard_bytes);   // ranks 0, 3, 6
  EXPECT_EQ(received[10], 2 * 2 * spec.checkpoint->shard_bytes);  // ranks 2, 5
  for (uint32_t k = 0; k < 5; ++k) EXPECT_EQ(w.iterations[k].checkpoint, k == 1 || k == 3);
}

// Every message belongs to the job and an iteration, and waits only for messages of its own or
// the previous iteration: an iteration cannot run ahead of the one before it.
TEST(TrainingTest, EveryMessageHasItsIterationAndWaitsOnlyBackwards) {
  TrainingSpec spec = Spec(2, 2, 4, 6);
  spec.iterations = 3;
  spec.gradient_buckets = 2;
  const Workload w = Build(spec);
  ASSERT_EQ(w.iterations.size(), 3u);
  std::vector<uint32_t> per_iteration(3);
  for (uint32_t i = 0; i < w.size(); ++i) {
    ASSERT_LT(w.iteration_of[i], 3u);
    EXPECT_EQ(w.job_of[i], 0u);
    ++per_iteration[w.iteration_of[i]];
    for (const uint32_t d : w.dependencies(i)) {
      EXPECT_LT(d, i);
      EXPECT_TRUE(w.iteration_of[d] == w.iteration_of[i] ||
                  w.iteration_of[d] + 1 == w.iteration_of[i]);
    }
  }
  EXPECT_EQ(per_iteration[0], per_iteration[1]);
  EXPECT_EQ(per_iteration[1], per_iteration[2]);
  // Pipeline sends: 2 directions x (p - 1) boundaries x m microbatches x dp x tp per iteration.
  uint32_t sends = 0;
  for (const CollectiveOp& op : w.ops) {
    if (op.kind == CollectiveKind::kSendRecv && op.iteration == 0) ++sends;
  }
  EXPECT_EQ(sends, 2u * 3 * 6);
  EXPECT_EQ(w.iterations[0].compute, (kForward + kBackward) * (6 + 4 - 1));
}

TEST(TrainingTest, SameSeedSameWorkloadOtherSeedOtherComputeTimes) {
  TrainingSpec spec = Spec(2, 1, 2, 3);
  spec.iterations = 4;
  spec.forward.distribution = ComputeTime::Distribution::kLognormal;
  spec.forward.stddev = Time::FromUs(10);
  const Workload a = Build(spec, 7), b = Build(spec, 7), c = Build(spec, 8);
  EXPECT_EQ(a.flows, b.flows);
  EXPECT_EQ(a.delay, b.delay);
  EXPECT_EQ(a.after, b.after);
  EXPECT_NE(a.delay, c.delay);
  EXPECT_EQ(a.flows.size(), c.flows.size());
}

TEST(ComputeTimeTest, DrawsHaveTheMeanAndDeviationAskedAndRespectTheFloor) {
  // 20,000 draws: the sample mean lies within 4 standard errors (s / sqrt(n)) of the mean
  // unless the generator is wrong (a chance of 6e-5 otherwise); the deviation within 5%.
  for (const auto dist :
       {ComputeTime::Distribution::kNormal, ComputeTime::Distribution::kLognormal}) {
    ComputeTime c;
    c.distribution = dist;
    c.mean = Time::FromUs(100);
    c.stddev = Time::FromUs(20);
    Random rng(3);
    constexpr int kDraws = 20000;
    double sum = 0, sum2 = 0;
    for (int i = 0; i < kDraws; ++i) {
      const double us = static_cast<double>(c.Draw(rng).ps()) * 1e-6;
      sum += us;
      sum2 += us * us;
    }
    const double mean = sum / kDraws;
    const double stddev = std::sqrt(sum2 / kDraws - mean * mean);
    EXPECT_NEAR(mean, 100, 4 * 20 / std::sqrt(kDraws));
    EXPECT_NEAR(stddev, 20, 1);
  }
  ComputeTime floored;
  floored.distribution = ComputeTime::Distribution::kNormal;
  floored.mean = Time::FromUs(10);
  floored.stddev = Time::FromUs(10);
  floored.min = Time::FromUs(8);
  Random rng(4);
  int at_floor = 0;
  for (int i = 0; i < 1000; ++i) {
    const Time t = floored.Draw(rng);
    EXPECT_GE(t, floored.min);
    at_floor += t == floored.min;
  }
  // P(draw < 8 us) = P(z < -0.2) = 42%: the floor holds many draws.
  EXPECT_GT(at_floor, 300);
}

}  // namespace
}  // namespace fe
