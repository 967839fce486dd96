// Egress scheduling on a real port: DWRR shares the wire by weight, strict priority starves the
// queues below it, and a PFC-paused queue gives its turn away.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "congestion/egress_scheduler.h"
#include "dataplane/egress_port.h"
#include "dataplane/egress_port_array.h"
#include "dataplane/packet.h"
#include "test_pool.h"

namespace fe::dp {
namespace {

// Records the queue each frame came from (written in its first byte by Frame()).
struct Sink : PacketReceiver {
  std::vector<uint8_t> queues;
  void Receive(uint16_t, rte_mbuf* m) override {
    queues.push_back(*rte_pktmbuf_mtod(m, uint8_t*));
    rte_pktmbuf_free(m);
  }
};

rte_mbuf* Frame(testing::TestPool& pool, uint8_t queue, uint32_t frame_bytes) {
  rte_mbuf* m = pool.Alloc();
  auto* p = reinterpret_cast<uint8_t*>(rte_pktmbuf_append(m, 60));
  if (p == nullptr) {
    ADD_FAILURE() << "no room for a 60-byte frame";
    return m;
  }
  std::memset(p, 0, 60);
  p[0] = queue;
  SetVirtualBytes(m, frame_bytes - 60 - kFcsBytes);
  return m;
}

cong::EgressSchedulerConfig Dwrr(int64_t quantum0, int64_t quantum1) {
  cong::EgressSchedulerParams p;
  p.queues[0].quantum_bytes = quantum0;
  p.queues[1].quantum_bytes = quantum1;
  return cong::Compile(p).value();
}

TEST(EgressSchedulingTest, DwrrThreeToOneSplitsTheWireThreeToOne) {
  testing::TestPool pool(4095);
  Scheduler sched;
  Sink sink;
  StandaloneEgressPort port(&sched, Rate::FromGbps(100), Time::FromNs(100));
  port.ConnectPeer(&sink, 0);
  const cong::EgressSchedulerConfig config = Dwrr(3 * 9216, 9216);
  port.SetScheduler(&config);
  // Both queues stay backlogged through the first 2000 departures.
  for (int i = 0; i < 1800; ++i) {
    port.Enqueue(Frame(pool, 0, 1500), 0);
    port.Enqueue(Frame(pool, 1, 1500), 1);
  }
  sched.RunUntil(Time::Infinite());
  uint64_t bytes[2] = {};
  for (int i = 0; i < 2000; ++i) bytes[sink.queues[i]] += 1500;
  // DRR's share of the wire follows the quanta: 3:1, within 2% (the tolerance; a round
  // leaves at most one frame of deficit per queue, 1500 bytes in ~750 kB here).
  const double ratio = static_cast<double>(bytes[0]) / static_cast<double>(bytes[1]);
  EXPECT_NEAR(ratio, 3.0, 3.0 * 0.02);
  EXPECT_EQ(pool.in_use(), 0u);
}

TEST(EgressSchedulingTest, StrictQueueStarvesTheOthersUntilEmpty) {
  testing::TestPool pool;
  Scheduler sched;
  Sink sink;
  StandaloneEgressPort port(&sched, Rate::FromGbps(100), Time::FromNs(100));
  port.ConnectPeer(&sink, 0);
  const cong::EgressSchedulerConfig config = cong::Compile(cong::EgressSchedulerParams{}).value();
  port.SetScheduler(&config);
  // The first frame of queue 0 takes the idle wire; then all of strict queue 7 goes before the
  // rest of queue 0.
  for (int i = 0; i < 10; ++i) port.Enqueue(Frame(pool, 0, 1000), 0);
  for (int i = 0; i < 10; ++i) port.Enqueue(Frame(pool, 7, 1000), 7);
  sched.RunUntil(Time::Infinite());
  ASSERT_EQ(sink.queues.size(), 20u);
  EXPECT_EQ(sink.queues[0], 0);
  for (int i = 1; i <= 10; ++i) EXPECT_EQ(sink.queues[i], 7) << i;
  for (int i = 11; i < 20; ++i) EXPECT_EQ(sink.queues[i], 0) << i;
}

TEST(EgressSchedulingTest, PausedQueueGivesItsTurnAway) {
  testing::TestPool pool;
  Scheduler sched;
  Sink sink;
  StandaloneEgressPort port(&sched, Rate::FromGbps(100), Time::FromNs(100));
  port.ConnectPeer(&sink, 0);
  const cong::EgressSchedulerConfig config = Dwrr(9216, 9216);
  port.SetScheduler(&config);
  std::array<uint16_t, kNumQueues> quanta{};
  quanta[0] = 0xFFFF;
  port.OnPauseFrame(Time::Zero(), 1u << 0, quanta);
  for (int i = 0; i < 5; ++i) port.Enqueue(Frame(pool, 0, 1000), 0);
  for (int i = 0; i < 5; ++i) port.Enqueue(Frame(pool, 1, 1000), 1);
  sched.RunUntil(Time::Infinite());
  ASSERT_EQ(sink.queues.size(), 10u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(sink.queues[i], 1) << i;
  for (int i = 5; i < 10; ++i) EXPECT_EQ(sink.queues[i], 0) << i;
}

TEST(EgressSchedulingTest, SlotsCountTheQueuedPrioritiesBelow) {
  constexpr uint8_t kPriorities = (1u << 1) | (1u << 4) | (1u << 6);
  EXPECT_EQ(QueueSlotOf(kPriorities, 1), 0);
  EXPECT_EQ(QueueSlotOf(kPriorities, 4), 1);
  EXPECT_EQ(QueueSlotOf(kPriorities, 6), 2);
  EXPECT_EQ(QueueSlotOf(kPriorities, 3), -1);
  EXPECT_EQ(QueuePriorityOf(kPriorities, 2), 6);
  EXPECT_EQ(QueueIdOf(kPriorities, 4).priority(), 4);
  EXPECT_EQ(QueueIdOf(kPriorities, 4).slot(), 1);
  EXPECT_EQ(QueueSlotMask(kPriorities, (1u << 6) | (1u << 7)), 1u << 2);
  // Two hot lines and a cold one, then a line per queue.
  EXPECT_EQ(EgressPort::StrideBytes(kPriorities), 192u + 3 * 64);
}

// A port with queues for only some priorities sends in the order a port with all eight does:
// strict priority, DWRR and a PFC pause over the same frames, with the same counts.
TEST(EgressSchedulingTest, PortWithFewerQueuesSendsInTheSameOrder) {
  constexpr uint8_t kPriorities = (1u << 0) | (1u << 1) | (1u << 3) | (1u << 6);
  constexpr uint8_t kUsed[] = {0, 1, 3, 6};
  testing::TestPool pool(4095);
  Scheduler full_sched, few_sched;
  Sink full_sink, few_sink;
  StandaloneEgressPort full(&full_sched, Rate::FromGbps(100), Time::FromNs(100));
  EgressPortArray few_array(kPriorities, 1);
  EgressPort& few = few_array.emplace_back(&few_sched, Rate::FromGbps(100), Time::FromNs(100));
  full.ConnectPeer(&full_sink, 0);
  few.ConnectPeer(&few_sink, 0);
  cong::EgressSchedulerParams params;  // 6 strict, the rest DWRR
  params.queues[0].quantum_bytes = 3000;
  params.queues[1].quantum_bytes = 1000;
  const cong::EgressSchedulerConfig by_priority = cong::Compile(params).value();
  const cong::EgressSchedulerConfig by_queue = QueueSchedulerConfig(by_priority, kPriorities);
  full.SetScheduler(&by_priority);
  few.SetScheduler(&by_queue);
  std::array<uint16_t, kNumQueues> quanta{};
  quanta[1] = 2000;  // 2000 x 512 bit times at 100 Gb/s: 10.24 us
  full.OnPauseFrame(Time::Zero(), 1u << 1, quanta);
  few.OnPauseFrame(Time::Zero(), 1u << 1, quanta);
  uint64_t x = 12345;
  for (int i = 0; i < 400; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const uint8_t prio = kUsed[(x >> 33) % 4];
    const auto bytes = static_cast<uint32_t>(100 + (x >> 40) % 1400);
    full.Enqueue(Frame(pool, prio, bytes), prio);
    few.Enqueue(Frame(pool, prio, bytes), prio);
  }
  EXPECT_EQ(few.queue_bytes(2), 0u);  // no queue: never holds anything
  full_sched.RunUntil(Time::Infinite());
  few_sched.RunUntil(Time::Infinite());
  ASSERT_EQ(full_sink.queues.size(), 400u);
  EXPECT_EQ(few_sink.queues, full_sink.queues);
  EXPECT_EQ(few.counters().max_queue_bytes, full.counters().max_queue_bytes);
  EXPECT_EQ(few.counters().queue_byte_ps, full.counters().queue_byte_ps);
  EXPECT_EQ(few.counters().pause_frames_received, full.counters().pause_frames_received);
  EXPECT_EQ(pool.in_use(), 0u);
}

}  // namespace
}  // namespace fe::dp
