#include "dataplane/int_stamp.h"

#include <gtest/gtest.h>

#include <array>

#include "test_pool.h"

namespace fe::dp {
namespace {

cong::IntHop Hop(uint64_t tx_bytes, Time ts, double gbps, uint32_t queue_bytes) {
  cong::IntHop h;
  h.tx_bytes = tx_bytes;
  h.timestamp = ts;
  h.link_rate = Rate::FromGbps(gbps);
  h.queue_bytes = queue_bytes;
  return h;
}

TEST(IntStampTest, RecordsComeBackInPathOrderAtTheirResolution) {
  testing::TestPool pool;
  rte_mbuf* m = pool.Alloc();
  InitIntStack(m, true);
  // Values on the 128-byte and 1-ns grids come back exactly.
  StampInt(m, Hop(128 * 1000, Time::FromNs(5000), 100, 128 * 7));
  StampInt(m, Hop(128 * 2000, Time::FromNs(6000), 400, 0));
  StampInt(m, Hop(128 * 3000, Time::FromNs(7000), 25, 128 * 65535));
  std::array<StampedHop, kMaxStampedHops> out;
  ASSERT_EQ(ReadIntStack(m, out), 3u);
  const cong::IntHop zero;
  const cong::IntHop a = ExpandIntHop(out[0], zero);
  EXPECT_EQ(a.tx_bytes, 128u * 1000);
  EXPECT_EQ(a.timestamp, Time::FromNs(5000));
  EXPECT_EQ(a.link_rate, Rate::FromGbps(100));
  EXPECT_EQ(a.queue_bytes, 128u * 7);
  EXPECT_EQ(ExpandIntHop(out[1], zero).link_rate, Rate::FromGbps(400));
  EXPECT_EQ(ExpandIntHop(out[2], zero).queue_bytes, 128u * 65535);  // the largest queue field
  // The echo carries the same stack.
  rte_mbuf* ack = pool.Alloc();
  CopyIntStack(m, ack);
  std::array<StampedHop, kMaxStampedHops> echoed;
  ASSERT_EQ(ReadIntStack(ack, echoed), 3u);
  EXPECT_EQ(ExpandIntHop(echoed[2], zero).tx_bytes, 128u * 3000);
  rte_pktmbuf_free(m);
  rte_pktmbuf_free(ack);
}

TEST(IntStampTest, WrappedCountersExpandAgainstThePreviousRecord) {
  testing::TestPool pool;
  rte_mbuf* m = pool.Alloc();
  InitIntStack(m, true);
  // 3 GiB already sent (the 20-bit field of 128-byte units wraps at 128 MiB) and 1 s of uptime
  // (the 24-bit nanosecond field wraps at 16.78 ms): the next record, 1 MiB and 10 us later,
  // must expand to exactly previous + delta.
  const cong::IntHop prev = Hop(uint64_t{3} << 30, Time::FromMs(1000), 100, 0);
  StampInt(m, Hop(prev.tx_bytes + (1 << 20), prev.timestamp + Time::FromUs(10), 100, 0));
  std::array<StampedHop, kMaxStampedHops> out;
  ASSERT_EQ(ReadIntStack(m, out), 1u);
  const cong::IntHop now = ExpandIntHop(out[0], prev);
  EXPECT_EQ(now.tx_bytes - prev.tx_bytes, uint64_t{1} << 20);
  EXPECT_EQ(now.timestamp - prev.timestamp, Time::FromUs(10));
  rte_pktmbuf_free(m);
}

TEST(IntStampTest, OnlyCollectingPacketsWithRoomAreStamped) {
  testing::TestPool pool;
  rte_mbuf* m = pool.Alloc();
  std::array<StampedHop, kMaxStampedHops> out;
  InitIntStack(m, false);  // an ACK, a CNP, or no HPCC
  StampInt(m, Hop(128, Time::FromNs(1), 100, 0));
  EXPECT_EQ(ReadIntStack(m, out), 0u);
  InitIntStack(m, true);
  for (uint32_t i = 0; i < kMaxStampedHops + 2; ++i) {
    StampInt(m, Hop(128 * i, Time::FromNs(i), 100, 0));
  }
  EXPECT_EQ(ReadIntStack(m, out), kMaxStampedHops);  // hops past the stack are not recorded
  EXPECT_EQ(ExpandIntHop(out[4], cong::IntHop{}).timestamp, Time::FromNs(4));
  rte_pktmbuf_free(m);
}

}  // namespace
}  // namespace fe::dp
