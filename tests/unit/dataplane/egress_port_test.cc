#include "dataplane/egress_port.h"

#include <gtest/gtest.h>

#include <vector>

#include "arrival_sink.h"
#include "dataplane/packet.h"
#include "test_pool.h"

namespace fe::dp {
namespace {

using testing::ArrivalSink;

TEST(EgressPortTest, FrameArrivesAfterSerialisationPlusPropagation) {
  testing::TestPool pool;
  Scheduler sched;
  ArrivalSink sink(&sched);
  StandaloneEgressPort port(&sched, Rate::FromGbps(25), Time::FromNs(500));
  port.ConnectPeer(&sink, 0);
  port.Enqueue(pool.Frame(1500), 0);
  sched.RunUntil(Time::Infinite());
  ASSERT_EQ(sink.arrivals.size(), 1u);
  // 8 * (1500 + 20 preamble/gap) bits / 25 Gb/s = 486.4 ns, + 500 ns propagation.
  EXPECT_EQ(sink.arrivals[0].ps(), 486400 + 500000);
}

// Three frames of frame_bytes queued at once on a port with a 1 us link: they must arrive
// serialisation_ps apart, the first after one serialisation and the propagation, and the port
// must count that much busy time.
void ExpectBackToBack(Rate rate, uint32_t frame_bytes, int64_t serialisation_ps) {
  testing::TestPool pool;
  Scheduler sched;
  ArrivalSink sink(&sched);
  StandaloneEgressPort port(&sched, rate, Time::FromNs(1000));
  port.ConnectPeer(&sink, 0);
  for (int i = 0; i < 3; ++i) port.Enqueue(pool.Frame(frame_bytes), 3);
  sched.RunUntil(Time::Infinite());
  ASSERT_EQ(sink.arrivals.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(sink.arrivals[i].ps(), (i + 1) * serialisation_ps + 1000000);
  }
  EXPECT_EQ(port.counters().tx_packets, 3u);
  EXPECT_EQ(port.counters().tx_wire_bytes, 3u * (frame_bytes + 20));
  EXPECT_EQ(port.counters().busy_time.ps(), 3 * serialisation_ps);
  EXPECT_EQ(pool.in_use(), 0u);
}

TEST(EgressPortTest, BackToBackFramesAreSpacedBySerialisation) {
  // 4178 wire bytes (20 of preamble and gap) at 100 Gb/s = 334.24 ns each.
  ExpectBackToBack(Rate::FromGbps(100), 4158, 334240);
}

// 3 Gb/s is 2,666.67 ps per byte, no whole number: each frame's time is rounded up to the
// picosecond on its own (a link never runs faster than its rate), and the busy time is their sum.
TEST(EgressPortTest, AtARateOfNoWholePsPerByteEachFrameRoundsUp) {
  // 8 * 1021 wire bytes / 3 Gb/s = 2,722,666.67 ps, rounded up to 2,722,667 per frame.
  ExpectBackToBack(Rate::FromGbps(3), 1001, 2722667);
}

TEST(EgressPortTest, RuntsArePaddedToTheEthernetMinimum) {
  testing::TestPool pool;
  Scheduler sched;
  ArrivalSink sink(&sched);
  StandaloneEgressPort port(&sched, Rate::FromGbps(10), Time::Zero());
  port.ConnectPeer(&sink, 0);
  rte_mbuf* m = pool.Alloc();
  rte_pktmbuf_append(m, 42);  // a 46-byte frame with FCS goes out as 64 bytes (IEEE 802.3)
  port.Enqueue(m, 0);
  sched.RunUntil(Time::Infinite());
  ASSERT_EQ(sink.arrivals.size(), 1u);
  EXPECT_EQ(sink.arrivals[0].ps(), (64 + 20) * 8 * 100);  // 100 ps per bit at 10 Gb/s
}

}  // namespace
}  // namespace fe::dp
