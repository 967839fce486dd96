#include "dataplane/int_stamp.h"

#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "dataplane/egress_port.h"

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
  // Switches on the way back leave the echo alone.
  StampInt(ack, Hop(128, Time::FromNs(1), 100, 0));
  EXPECT_EQ(ReadIntStack(ack, echoed), 3u);
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

struct NullObserver : DequeueObserver {
  void OnDequeue(uint16_t, rte_mbuf*, uint32_t, QueueId, uint16_t) override {}
  void OnFlush(uint16_t, rte_mbuf*, uint32_t, QueueId, uint16_t) override {}
};

struct StackSink : PacketReceiver {
  std::vector<std::vector<StampedHop>> stacks;
  void Receive(uint16_t, rte_mbuf* m) override {
    std::array<StampedHop, kMaxStampedHops> out;
    stacks.emplace_back(out.begin(), out.begin() + ReadIntStack(m, out));
    rte_pktmbuf_free(m);
  }
};

rte_mbuf* Frame(testing::TestPool& pool, uint32_t frame_bytes, bool collect) {
  rte_mbuf* m = pool.Frame(frame_bytes);
  InitIntStack(m, collect);
  return m;
}

TEST(IntStampTest, SwitchPortStampsTxBytesTimeRateAndQueueBehindAtDequeue) {
  testing::TestPool pool;
  Scheduler sched;
  StackSink sink;
  NullObserver observer;
  StandaloneEgressPort port(&sched, Rate::FromGbps(100), Time::FromNs(1000));
  port.ConnectPeer(&sink, 0);
  port.SetDequeueObserver(&observer, 0);
  constexpr uint32_t kFrame = 4158;
  constexpr uint32_t kWire = kFrame + 20;  // preamble and inter-frame gap
  // The first frame starts at once (nothing queued behind it yet) and collects nothing: it is
  // not HPCC traffic. The three behind it collect.
  port.Enqueue(Frame(pool, kFrame, false), 3);
  for (int i = 0; i < 3; ++i) port.Enqueue(Frame(pool, kFrame, true), 3);
  sched.RunUntil(Time::Infinite());
  ASSERT_EQ(sink.stacks.size(), 4u);
  EXPECT_TRUE(sink.stacks[0].empty());
  for (uint32_t i = 1; i <= 3; ++i) {
    ASSERT_EQ(sink.stacks[i].size(), 1u);
    const StampedHop& h = sink.stacks[i][0];
    // Frame i leaves when i frames of 4178 wire bytes have been serialised at 100 Gb/s
    // (334.24 ns each), counts itself in tx bytes and sees the 3 - i frames still queued behind
    // it; the record keeps whole ns and 128-byte units, truncated.
    EXPECT_EQ(h.timestamp_ns, i * 334240 / 1000);
    EXPECT_EQ(h.tx_units, (i + 1) * kWire / kIntTxUnitBytes);
    EXPECT_EQ(h.queue_units, (3 - i) * kFrame / kIntQueueUnitBytes);
    EXPECT_EQ(h.rate_gbps, 100);
  }
}

TEST(IntStampTest, HostPortsDoNotStamp) {
  testing::TestPool pool;
  Scheduler sched;
  StackSink sink;
  StandaloneEgressPort port(&sched, Rate::FromGbps(100),
                            Time::Zero());  // no dequeue observer: a NIC's
  port.ConnectPeer(&sink, 0);
  port.Enqueue(Frame(pool, 1000, true), 3);
  sched.RunUntil(Time::Infinite());
  ASSERT_EQ(sink.stacks.size(), 1u);
  EXPECT_TRUE(sink.stacks[0].empty());
}

}  // namespace
}  // namespace fe::dp
