// RunUntilObserved: the real-time loop's view of the scheduler. The observer must see each
// event's due time just before the event runs, in run order, and nothing else may change.
#include <gtest/gtest.h>

#include <vector>

#include "core/scheduler.h"

namespace fe {
namespace {

struct NowRecorder : EventHandler {
  Scheduler* sched = nullptr;
  std::vector<int64_t> ran_at_ps;
  void OnEvent(uint64_t) override { ran_at_ps.push_back(sched->Now().ps()); }
};

TEST(SchedulerObservedTest, ObserverSeesEveryDueTimeBeforeItsEventInOrder) {
  Scheduler s;
  NowRecorder r;
  r.sched = &s;
  for (int64_t ns : {30, 10, 20, 10, 40}) s.At(Time::FromNs(ns), &r);
  std::vector<int64_t> seen_ps;
  size_t ran_before_observer = 0;
  const uint64_t n = s.RunUntilObserved(Time::FromNs(30), [&](Time due) {
    // The event for this due time has not run yet.
    EXPECT_EQ(r.ran_at_ps.size(), ran_before_observer++);
    seen_ps.push_back(due.ps());
  });
  EXPECT_EQ(n, 4u);
  const std::vector<int64_t> want = {10000, 10000, 20000, 30000};
  EXPECT_EQ(seen_ps, want);
  // Each event ran with the clock at its own due time, as in software mode.
  EXPECT_EQ(r.ran_at_ps, want);
  EXPECT_EQ(s.pending(), 1u);  // the 40 ns event is after the bound
  EXPECT_EQ(s.events_run(), 4u);
}

TEST(SchedulerObservedTest, AdvanceToAfterRunningKeepsTheClockMonotonic) {
  Scheduler s;
  NowRecorder r;
  r.sched = &s;
  s.At(Time::FromNs(5), &r);
  s.RunUntilObserved(Time::FromNs(100), [](Time) {});
  s.AdvanceTo(Time::FromNs(100));  // the TSC's now, after the due events ran
  EXPECT_EQ(s.Now(), Time::FromNs(100));
  s.AdvanceTo(Time::FromNs(50));  // never back
  EXPECT_EQ(s.Now(), Time::FromNs(100));
  s.At(Time::FromNs(70), &r);  // in the past of the new now: clamped to it
  s.RunUntilObserved(Time::FromNs(100), [](Time due) { EXPECT_EQ(due, Time::FromNs(100)); });
  EXPECT_EQ(r.ran_at_ps.back(), 100000);
}

}  // namespace
}  // namespace fe
