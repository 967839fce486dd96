// The event scheduler: one object per fabric, passed to every element (never a static).
// Events run in (time, insertion order), which makes a run deterministic. The scheduler holds the
// model's notion of "now"; software mode advances it to each event, real-time mode advances it
// from the TSC (see dataplane/realtime_loop) and runs what is due.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/clock.h"
#include "core/event_queue.h"
#include "core/units.h"

namespace fe {

class EventHandler {
 public:
  virtual ~EventHandler() = default;
  virtual void OnEvent(uint64_t arg) = 0;
  // Called twice, a few events apart, before OnEvent(arg), once this object's first lines are
  // being fetched: a handler may prefetch what that event will touch, at stage 0 what it can
  // address from its own state and arg, at stage 1 what those lines lead to. The misses of
  // several events then overlap instead of each stalling in turn. Changes nothing.
  virtual void Prefetch(uint64_t /*arg*/, int /*stage*/) const {}
};

class Scheduler {
 public:
  Scheduler() = default;
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  const Clock& clock() const { return clock_; }
  Time Now() const { return clock_.Now(); }

  // Schedules handler->OnEvent(arg) at time `at` (clamped to now: the past cannot be changed).
  void At(Time at, EventHandler* handler, uint64_t arg = 0) {
    if (at < clock_.Now()) at = clock_.Now();
    queue_.Push(Event{at, next_seq_++, handler, arg});
  }
  void After(Time delay, EventHandler* handler, uint64_t arg = 0) {
    At(Now() + delay, handler, arg);
  }

  bool empty() const { return queue_.empty(); }
  size_t pending() const { return queue_.size(); }
  uint64_t events_run() const { return events_run_; }

  // Software mode: runs events in order until none is left, the next is after `until`, or
  // max_events have run (so a caller can report progress between slices). Returns how many ran.
  uint64_t RunUntil(Time until, uint64_t max_events = UINT64_MAX);
  // Runs exactly one event if there is one; returns false when empty.
  bool RunOne();
  // RunUntil that calls before_each(due time) just before each event runs: real-time mode
  // measures from it how late each event ran. A template, so plain RunUntil pays nothing.
  template <typename BeforeEach>
  uint64_t RunUntilObserved(Time until, BeforeEach&& before_each) {
    uint64_t n = 0;
    while (!queue_.empty() && queue_.top().at <= until) {
      before_each(queue_.top().at);
      RunOne();
      ++n;
    }
    return n;
  }

  // Real-time mode: moves now forward (never back) without running anything.
  void AdvanceTo(Time t) {
    if (t > clock_.Now()) clock_.AdvanceTo(t);
  }

 private:
  // How far ahead the scheduler warms events: their handler objects at three times the
  // distance, then what each handler asks for at stage 0 and 1.
  static constexpr size_t kPrefetchDistance = 4;
  EventQueue queue_;
  uint64_t next_seq_ = 0;
  uint64_t events_run_ = 0;
  VirtualClock clock_;
};

}  // namespace fe
