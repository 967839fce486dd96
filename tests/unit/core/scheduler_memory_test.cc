// The scheduler's memory follows what is pending, not how many events have run: a run of any
// length with a bounded number of events pending must hold a bounded amount.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "core/scheduler.h"

namespace fe {
namespace {

constexpr Time kLookahead = Time::FromNs(1000);
constexpr uint64_t kChained = 1'000'000;

// Within one window of domain 1: a first event leaves one event pending later in the window,
// then a chain of a million events each schedules the next at the same instant, ahead of that
// pending one. At most two events are ever pending in the window's queue, and it never empties
// until the chain ends: the shape of a timer that re-arms itself at the current time.
struct Chain : EventHandler {
  Scheduler* sched = nullptr;
  uint64_t chained = 0;
  bool late_ran = false;
  size_t peak_capacity = 0;

  void OnEvent(uint64_t arg) override {
    peak_capacity = std::max(peak_capacity, sched->window_queue_capacity());
    switch (arg) {
      case 0:
        sched->At(sched->Now() + kLookahead - Time::FromNs(500), this, 2);
        sched->At(sched->Now(), this, 1);
        break;
      case 1:
        if (++chained < kChained) sched->At(sched->Now(), this, 1);
        break;
      default:
        late_ran = true;
    }
  }
};

TEST(SchedulerMemoryTest, WindowQueueHoldsWhatIsPendingNotWhatRan) {
  Scheduler s;
  s.EnableWindows(kLookahead, 2);
  Chain chain;
  chain.sched = &s;
  chain.set_event_domain(1);
  s.At(Time::FromNs(10), &chain, 0);

  EXPECT_EQ(s.RunUntil(Time::Infinite()), kChained + 2);
  EXPECT_EQ(chain.chained, kChained);
  EXPECT_TRUE(chain.late_ran);
  EXPECT_TRUE(s.empty());
  // Two pending, plus the one being pushed: a vector that grows (doubling) only when full of
  // pending events never needs more than 4 slots. 8 leaves room for a library that grows by
  // another factor; keeping every event run would need a million.
  EXPECT_LE(chain.peak_capacity, 8u);
  EXPECT_LE(s.window_queue_capacity(), 8u);
}

}  // namespace
}  // namespace fe
