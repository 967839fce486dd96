#include "congestion/egress_scheduler.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>

#include "core/random.h"

namespace fe::cong {
namespace {

constexpr uint32_t kMaxPacket = 4096;

EgressSchedulerConfig TwoDwrrQueues(int64_t quantum0, int64_t quantum1) {
  EgressSchedulerParams params;
  for (EgressQueueParams& q : params.queues) q.strict = true;
  params.queues[0] = {.strict = false, .quantum_bytes = quantum0};
  params.queues[1] = {.strict = false, .quantum_bytes = quantum1};
  const StatusOr<EgressSchedulerConfig> config = Compile(params);
  EXPECT_TRUE(config.ok()) << config.status().message();
  return config.value();
}

struct Bytes {
  int64_t q0 = 0;
  int64_t q1 = 0;
};

// Both queues always backlogged; each served head is replaced by a fresh packet of random size.
Bytes RunSaturated(const EgressSchedulerConfig& config, int picks, uint32_t min_size0,
                   uint32_t min_size1) {
  EgressScheduler scheduler;
  std::array<uint32_t, kNumPriorities> deficits{};
  Random rng(5);
  auto size = [&](uint32_t lo) {
    return lo + static_cast<uint32_t>(rng.NextBelow(kMaxPacket - lo + 1));
  };
  std::array<uint32_t, kNumPriorities> head{};
  head[0] = size(min_size0);
  head[1] = size(min_size1);
  Bytes sent;
  for (int i = 0; i < picks; ++i) {
    const int q = scheduler.Pick(config, 0b11, head, deficits);
    if (q != 0 && q != 1) {
      ADD_FAILURE() << "pick " << q << " is not an eligible queue";
      return sent;
    }
    (q == 0 ? sent.q0 : sent.q1) += head[q];
    head[q] = size(q == 0 ? min_size0 : min_size1);
  }
  return sent;
}

// DRR's guarantee (Shreedhar and Varghese, Lemma 2): after k visits a backlogged queue has sent
// k Q - d bytes with 0 <= d < max packet, so at any stopping point
// -(Q0 + M) <= B0 - 3 B1 <= Q0 + 3 M for quanta Q0 = 3 Q1. Over a million packets (~2 GB) that
// bound is about 1e-5 of the bytes, far inside the 2% the issue asks for; both are checked.
TEST(EgressSchedulerTest, DwrrThreeToOneWeightsSplitBytesThreeToOne) {
  constexpr int64_t kQ1 = 4096;
  const EgressSchedulerConfig config = TwoDwrrQueues(3 * kQ1, kQ1);
  const Bytes sent = RunSaturated(config, 1'000'000, 64, 64);
  EXPECT_NEAR(static_cast<double>(sent.q0) / sent.q1, 3.0, 3.0 * 0.02);
  EXPECT_LE(std::llabs(sent.q0 - 3 * sent.q1), 3 * kQ1 + 3 * kMaxPacket);
}

// Byte fairness, not packet fairness: equal quanta give equal bytes even when one queue sends
// 4 KB packets and the other packets of 64 to 512 bytes; |B0 - B1| <= Q + M by the same lemma.
TEST(EgressSchedulerTest, EqualQuantaShareBytesNotPackets) {
  constexpr int64_t kQ = 9216;
  const EgressSchedulerConfig config = TwoDwrrQueues(kQ, kQ);
  EgressScheduler scheduler;
  std::array<uint32_t, kNumPriorities> deficits{};
  std::array<uint32_t, kNumPriorities> head{};
  head[0] = 4096;
  head[1] = 300;
  Bytes sent;
  for (int i = 0; i < 100'000; ++i) {
    const int q = scheduler.Pick(config, 0b11, head, deficits);
    ASSERT_TRUE(q == 0 || q == 1);
    (q == 0 ? sent.q0 : sent.q1) += head[q];
  }
  EXPECT_LE(std::llabs(sent.q0 - sent.q1), kQ + kMaxPacket);
}

TEST(EgressSchedulerTest, StrictPriorityStarvesLowerQueuesWhileItHasPackets) {
  const StatusOr<EgressSchedulerConfig> config = Compile(EgressSchedulerParams{});
  ASSERT_TRUE(config.ok());
  EgressScheduler scheduler;
  std::array<uint32_t, kNumPriorities> deficits{};
  std::array<uint32_t, kNumPriorities> head{};
  head.fill(1500);
  // Queue 7 (strict, highest) holds 100 packets; queues 0 (DWRR) and 6 (strict) are backlogged.
  int high_left = 100;
  int served_low = 0;
  for (int i = 0; i < 100; ++i) {
    const uint8_t eligible = 0b0000'0001 | 0b0100'0000 | (high_left > 0 ? 0b1000'0000 : 0);
    const int q = scheduler.Pick(config.value(), eligible, head, deficits);
    ASSERT_EQ(q, 7) << i;
    --high_left;
    served_low += q != 7;
  }
  EXPECT_EQ(served_low, 0);
  // Queue 7 empty: the next strict queue, 6, wins over DWRR queue 0.
  EXPECT_EQ(scheduler.Pick(config.value(), 0b0100'0001, head, deficits), 6);
  // Only DWRR left.
  EXPECT_EQ(scheduler.Pick(config.value(), 0b0000'0001, head, deficits), 0);
}

TEST(EgressSchedulerTest, IneligibleQueuesNeitherBlockNorBankCredit) {
  const EgressSchedulerConfig config = TwoDwrrQueues(1000, 1000);
  EgressScheduler scheduler;
  std::array<uint32_t, kNumPriorities> deficits{};
  std::array<uint32_t, kNumPriorities> head{};
  head[0] = 1000;
  head[1] = 1500;
  EXPECT_EQ(scheduler.Pick(config, 0, head, deficits), -1);
  // Queue 1 paused: queue 0 alone is served, however long.
  for (int i = 0; i < 50; ++i) ASSERT_EQ(scheduler.Pick(config, 0b01, head, deficits), 0);
  // Both eligible. Queue 0 spends its 1000 on its packet; queue 1's 1000 does not cover its
  // 1500-byte head, so it keeps the 1000 as deficit and queue 0 goes again.
  EXPECT_EQ(scheduler.Pick(config, 0b11, head, deficits), 0);
  // Queue 1 is paused for one pick: DRR forfeits its 1000 of deficit, so on its next visit it
  // again holds only 1000 < 1500 and queue 0 is served (with the deficit kept it would hold
  // 2000 and be served); the visit after that brings it to 2000.
  EXPECT_EQ(scheduler.Pick(config, 0b01, head, deficits), 0);
  EXPECT_EQ(scheduler.Pick(config, 0b11, head, deficits), 0);
  EXPECT_EQ(scheduler.Pick(config, 0b11, head, deficits), 1);
}

TEST(EgressSchedulerTest, RefusesAZeroQuantumNamingTheField) {
  EgressSchedulerParams params;
  params.queues[2].quantum_bytes = 0;
  EXPECT_EQ(Compile(params).status().message(), "queues[2].quantum_bytes (0) outside [1, 2^24]");
}

}  // namespace
}  // namespace fe::cong
