// PFC on the wire between two egress ports: a pause frame crosses the link, ends at the receiving
// MAC and stops the reverse direction's queue of that class for exactly quanta x 512 bit times.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "arrival_sink.h"
#include "dataplane/egress_port.h"
#include "dataplane/packet.h"
#include "dataplane/pfc_frame.h"
#include "test_pool.h"

namespace fe::dp {
namespace {

using testing::ArrivalSink;

rte_mbuf* Pause(testing::TestPool& pool, uint8_t prio, uint16_t quanta) {
  rte_mbuf* m = pool.Alloc();
  PfcFrame f;
  f.class_enable = static_cast<uint8_t>(1u << prio);
  f.quanta[prio] = quanta;
  const uint8_t mac[6] = {0x02, 0, 0, 0, 0, 1};
  EXPECT_TRUE(WritePfcFrame(m, mac, f));
  return m;
}

// One link A <-> B, both directions, with sinks at both ends.
struct Link {
  Scheduler sched;
  ArrivalSink at_a{&sched}, at_b{&sched};
  StandaloneEgressPort a_to_b, b_to_a;
  Link(Rate rate, Time delay) : a_to_b(&sched, rate, delay), b_to_a(&sched, rate, delay) {
    a_to_b.ConnectDuplex(&at_b, 0, &b_to_a);
    b_to_a.ConnectDuplex(&at_a, 0, &a_to_b);
  }
};

const Rate kRate = Rate::FromGbps(100);
const Time kDelay = Time::FromNs(1000);
// 1000 quanta x 512 bit / 100 Gb/s = 5.12 us (802.1Qbb: a quantum is 512 bit times).
const Time kPause1000 = Time::FromPs(5'120'000);

TEST(PauseTest, PausedQueueStopsForExactlyQuantaTimes512BitTimes) {
  testing::TestPool pool;
  Link l(kRate, kDelay);
  // B sends the pause to A at t = 0: it leaves B after 84 wire bytes (6.72 ns) and reaches A one
  // propagation delay later, at 1006.72 ns; A's queue 3 then stops for 5.12 us.
  l.b_to_a.EnqueueControl(Pause(pool, 3, 1000));
  l.sched.RunUntil(Time::FromNs(1100));
  EXPECT_TRUE(l.at_a.arrivals.empty());  // MAC control ends at the MAC
  const Time pause_start = Time::FromPs(6720) + kDelay;
  const Time t_enqueue = l.sched.Now();  // the last event run: the pause's arrival
  EXPECT_TRUE(l.a_to_b.Paused(3, t_enqueue));
  l.a_to_b.Enqueue(pool.Frame(1500), 3);
  l.a_to_b.Enqueue(pool.Frame(1500), 0);  // another class is not paused
  l.sched.RunUntil(Time::Infinite());
  ASSERT_EQ(l.at_b.arrivals.size(), 2u);
  const Time ser1520 = Time::FromPs(1520 * 80);  // 80 ps per byte at 100 Gb/s
  EXPECT_EQ(l.at_b.arrivals[0].ps(), (t_enqueue + ser1520 + kDelay).ps());
  EXPECT_EQ(l.at_b.arrivals[1].ps(), (pause_start + kPause1000 + ser1520 + kDelay).ps());
  EXPECT_EQ(l.a_to_b.PausedTime(3, l.sched.Now()).ps(), kPause1000.ps());
  EXPECT_EQ(l.a_to_b.counters().pause_frames_received[3], 1u);
  EXPECT_EQ(pool.in_use(), 0u);
}

TEST(PauseTest, XonResumesAtItsArrival) {
  testing::TestPool pool;
  Link l(kRate, kDelay);
  l.b_to_a.EnqueueControl(Pause(pool, 3, 0xFFFF));
  l.sched.RunUntil(Time::FromNs(2000));
  const Time t_xon = l.sched.Now();  // the XOFF's arrival, 1006.72 ns: the last event run
  l.a_to_b.Enqueue(pool.Frame(1500), 3);
  l.b_to_a.EnqueueControl(Pause(pool, 3, 0));
  l.sched.RunUntil(Time::Infinite());
  ASSERT_EQ(l.at_b.arrivals.size(), 1u);
  const Time xon_arrival = t_xon + Time::FromPs(6720) + kDelay;
  EXPECT_EQ(l.at_b.arrivals[0].ps(), (xon_arrival + Time::FromPs(1520 * 80) + kDelay).ps());
  EXPECT_EQ(l.a_to_b.PausedTime(3, l.sched.Now()).ps(), (xon_arrival - t_xon).ps());
  EXPECT_EQ(pool.in_use(), 0u);
}

TEST(PauseTest, ControlFramesGoAheadOfQueuedData) {
  testing::TestPool pool;
  Link l(kRate, kDelay);
  for (int i = 0; i < 3; ++i) l.b_to_a.Enqueue(pool.Frame(4000), 3);
  l.b_to_a.EnqueueControl(Pause(pool, 3, 1000));
  l.sched.RunUntil(Time::Infinite());
  // The first data frame was already on the wire (a frame is never pre-empted); the pause
  // follows it at 4020 x 80 ps = 321.6 ns, before the two queued ones.
  const Time pause_arrival = Time::FromPs(4020 * 80 + 84 * 80) + kDelay;
  EXPECT_EQ(l.b_to_a.PausedTime(3, Time::Zero()).ps(), 0);
  EXPECT_EQ(l.a_to_b.counters().pause_frames_received[3], 1u);
  EXPECT_EQ(l.a_to_b.PausedTime(3, l.sched.Now()).ps(), kPause1000.ps());
  ASSERT_EQ(l.at_a.arrivals.size(), 3u);
  EXPECT_LT(l.at_a.arrivals[0], pause_arrival);
  EXPECT_GT(l.at_a.arrivals[1], pause_arrival);
}

}  // namespace
}  // namespace fe::dp
