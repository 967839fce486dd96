#include "core/scheduler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace fe {
namespace {

struct Recorder : EventHandler {
  Scheduler* sched = nullptr;
  std::vector<std::pair<int64_t, uint64_t>> seen;  // (time ps, arg)
  void OnEvent(uint64_t arg) override { seen.emplace_back(sched->Now().ps(), arg); }
};

TEST(SchedulerTest, RunsInTimeThenInsertionOrder) {
  Scheduler s;
  Recorder r;
  r.sched = &s;
  s.At(Time::FromNs(5), &r, 1);
  s.At(Time::FromNs(2), &r, 2);
  s.At(Time::FromNs(5), &r, 3);  // same time as arg 1: must run after it
  s.At(Time::FromNs(1), &r, 4);
  EXPECT_EQ(s.RunUntil(Time::Infinite()), 4u);
  const std::vector<std::pair<int64_t, uint64_t>> want = {
      {1000, 4}, {2000, 2}, {5000, 1}, {5000, 3}};
  EXPECT_EQ(r.seen, want);
}

TEST(SchedulerTest, RunUntilStopsAtBoundAndPastIsClampedToNow) {
  Scheduler s;
  Recorder r;
  r.sched = &s;
  s.At(Time::FromNs(10), &r, 1);
  s.At(Time::FromNs(20), &r, 2);
  EXPECT_EQ(s.RunUntil(Time::FromNs(15)), 1u);
  EXPECT_EQ(s.Now(), Time::FromNs(10));
  s.At(Time::FromNs(3), &r, 3);  // in the past: runs at now, before the later event
  s.RunUntil(Time::Infinite());
  ASSERT_EQ(r.seen.size(), 3u);
  EXPECT_EQ(r.seen[1], (std::pair<int64_t, uint64_t>{10000, 3}));
}

TEST(SchedulerTest, ManyRandomEventsComeOutSorted) {
  Scheduler s;
  Recorder r;
  r.sched = &s;
  uint64_t x = 12345;
  for (int i = 0; i < 10000; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    s.At(Time::FromPs(static_cast<int64_t>(x >> 40)), &r, i);
  }
  s.RunUntil(Time::Infinite());
  ASSERT_EQ(r.seen.size(), 10000u);
  for (size_t i = 1; i < r.seen.size(); ++i) ASSERT_LE(r.seen[i - 1].first, r.seen[i].first);
}

// Tear-down: every pending event, near or far, of a node or of domain 0, reaches its handler's
// Discard exactly once and never runs.
TEST(SchedulerTest, DiscardAllHandsEveryPendingEventBackUnrun) {
  struct Discarded : Recorder {
    std::vector<uint64_t> discarded;
    void Discard(uint64_t arg) override { discarded.push_back(arg); }
  };
  Scheduler s;
  Discarded node, sampler;
  node.sched = sampler.sched = &s;
  node.set_event_domain(1);
  s.EnableWindows(Time::FromNs(1000), 2);
  s.At(Time::FromNs(3), &node, 1);
  s.At(Time::FromNs(2000), &node, 2);
  s.At(Time::FromMs(70), &node, 3);  // a timer far beyond the calendar's window
  s.At(Time::FromNs(5), &sampler, 4);
  EXPECT_EQ(s.pending(), 4u);
  s.DiscardAll();
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(s.RunUntil(Time::Infinite()), 0u);
  EXPECT_TRUE(node.seen.empty());
  EXPECT_TRUE(sampler.seen.empty());
  std::sort(node.discarded.begin(), node.discarded.end());
  EXPECT_EQ(node.discarded, (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_EQ(sampler.discarded, (std::vector<uint64_t>{4}));
}

TEST(UnitsTest, SerializationIsExactAtHundredGig) {
  // 100 Gb/s = 80 ps per byte; 4158 bytes -> 332640 ps.
  EXPECT_EQ(Rate::FromGbps(100).SerializationTime(4158).ps(), 332640);
  // 25 Gb/s, 64 bytes = 512 bits -> 20.48 ns.
  EXPECT_EQ(Rate::FromGbps(25).SerializationTime(64).ps(), 20480);
  EXPECT_EQ(Rate::FromGbps(100).BytesIn(Time::FromNs(1000)), 12500);
}

TEST(UnitsTest, WholePicosecondsPerByteAreExactlyTheSerialisationTime) {
  // 8e12 bit-ps per byte over the rate: 100 Gb/s 80, 400 Gb/s 20, 1.6 Tb/s 5, 25 Gb/s 320.
  EXPECT_EQ(Rate::FromGbps(100).WholePsPerByte(), 80);
  EXPECT_EQ(Rate::FromGbps(400).WholePsPerByte(), 20);
  EXPECT_EQ(Rate::FromGbps(1600).WholePsPerByte(), 5);
  EXPECT_EQ(Rate::FromGbps(25).WholePsPerByte(), 320);
  // 3 Gb/s is 2666.67 ps per byte and 30 Tb/s 0.27: no whole number, the divide stays.
  EXPECT_EQ(Rate::FromGbps(3).WholePsPerByte(), 0);
  EXPECT_EQ(Rate::FromGbps(30000).WholePsPerByte(), 0);
  EXPECT_EQ(Rate().WholePsPerByte(), 0);
  for (const double gbps : {1.0, 10.0, 25.0, 40.0, 50.0, 100.0, 200.0, 400.0, 800.0, 1600.0}) {
    const Rate r = Rate::FromGbps(gbps);
    for (int64_t n = 0; n <= 10000; n += 37) {
      ASSERT_EQ(r.SerializationTime(n).ps(), n * r.WholePsPerByte()) << gbps << " Gb/s, " << n;
    }
  }
}

}  // namespace
}  // namespace fe
