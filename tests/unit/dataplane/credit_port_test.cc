// Credits on the wire between two egress ports: with a receiver that frees each frame as it
// arrives (a NIC), a sender whose buffer holds two frames sends two per credit loop, the loop
// being the frame's serialisation, the propagation, the update delay and the propagation back;
// the time it waits shows as blocked time; lost updates are recovered by resyncs.
#include <gtest/gtest.h>

#include <vector>

#include "arrival_sink.h"
#include "dataplane/egress_port.h"
#include "dataplane/packet.h"
#include "test_pool.h"

namespace fe::dp {
namespace {

using testing::ArrivalSink;

const Rate kRate = Rate::FromGbps(100);
const Time kDelay = Time::FromNs(1000);
const Time kUpdateDelay = Time::FromNs(200);
constexpr uint32_t kFrameBytes = 1500;
// 1520 wire bytes at 80 ps per byte.
const Time kSer = Time::FromPs(1520 * 80);

struct CreditLink {
  Scheduler sched;
  ArrivalSink at_a{&sched}, at_b{&sched};
  StandaloneEgressPort a_to_b, b_to_a;
  CreditLink(int64_t buffer_bytes, double loss)
      : a_to_b(&sched, kRate, kDelay), b_to_a(&sched, kRate, kDelay) {
    a_to_b.ConnectDuplex(&at_b, 0, &b_to_a);
    b_to_a.ConnectDuplex(&at_a, 0, &a_to_b);
    CreditPortSetup setup;
    setup.params.buffer_bytes = buffer_bytes;
    setup.params.update_delay = kUpdateDelay;
    setup.params.resync_period = Time::FromNs(3000);
    setup.params.update_loss_probability = loss;
    setup.seed = 7;
    setup.peer_consumes_on_arrival = true;  // both ends are sinks: NIC-like
    a_to_b.EnableCredit(setup);
    b_to_a.EnableCredit(setup);
  }
};

TEST(CreditPortTest, TwoFrameBufferSendsTwoFramesPerCreditLoop) {
  testing::TestPool pool;
  CreditLink l(2 * kFrameBytes, 0);
  constexpr int kFrames = 6;
  for (int i = 0; i < kFrames; ++i) l.a_to_b.Enqueue(pool.Frame(kFrameBytes), 3);
  l.sched.RunUntil(Time::Infinite());
  ASSERT_EQ(l.at_b.arrivals.size(), static_cast<size_t>(kFrames));
  // Frame k starts at (k / 2) loops + (k % 2) serialisations: the credit of frame k - 2 comes
  // back one loop after it started. It arrives ser + delay later.
  const Time loop = kSer + kDelay + kUpdateDelay + kDelay;
  for (int k = 0; k < kFrames; ++k) {
    const Time start = Time::FromPs(loop.ps() * (k / 2) + kSer.ps() * (k % 2));
    EXPECT_EQ(l.at_b.arrivals[k], start + kSer + kDelay) << "frame " << k;
  }
  // Blocked from the end of frame 1 (and 3), 2 ser after its pair's start, until the credit
  // came back: twice (loop - 2 ser).
  EXPECT_EQ(l.a_to_b.CreditBlockedTime(3, l.sched.Now()),
            Time::FromPs(2 * (loop.ps() - 2 * kSer.ps())));
  const CreditPort& c = *l.a_to_b.credit_port();
  EXPECT_EQ(c.counters().overdrafts, 0u);
  EXPECT_EQ(c.counters().updates_sent, static_cast<uint64_t>(kFrames));
  EXPECT_EQ(c.counters().resyncs, 0u);  // blocked 2.08 us at a time, under the 3 us period
  // Everything came back: the whole buffer is credit again.
  EXPECT_EQ(c.available_bytes(3), 2 * kFrameBytes);
}

TEST(CreditPortTest, LostUpdatesAreRecoveredByResyncs) {
  testing::TestPool pool;
  CreditLink l(2 * kFrameBytes, 0.9);
  constexpr int kFrames = 20;
  for (int i = 0; i < kFrames; ++i) l.a_to_b.Enqueue(pool.Frame(kFrameBytes), 3);
  l.sched.RunUntil(Time::Infinite());  // returns: nothing waits for credit forever
  EXPECT_EQ(l.at_b.arrivals.size(), static_cast<size_t>(kFrames));
  const CreditPort& c = *l.a_to_b.credit_port();
  EXPECT_GT(c.counters().updates_lost, 0u);
  EXPECT_GE(c.counters().resyncs, 1u);
  EXPECT_EQ(c.counters().overdrafts, 0u);
  EXPECT_GE(c.available_bytes(3), 0);
}

}  // namespace
}  // namespace fe::dp
