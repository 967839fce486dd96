// Every model element reads time through a Clock; nothing in a model reads the wall clock.
// Software mode uses the scheduler's virtual clock, real-time mode a TSC clock (dataplane/), and
// tests a ManualClock they move by hand.
#pragma once

#include "core/units.h"

namespace fe {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual Time Now() const = 0;
};

// Virtual time: advanced only by whoever owns it (the scheduler's run loop).
class VirtualClock final : public Clock {
 public:
  Time Now() const override { return now_; }
  void AdvanceTo(Time t) { now_ = t; }

 private:
  Time now_;
};

class ManualClock final : public Clock {
 public:
  explicit ManualClock(Time start = Time::Zero()) : now_(start) {}
  Time Now() const override { return now_; }
  void Set(Time t) { now_ = t; }
  void Advance(Time d) { now_ += d; }

 private:
  Time now_;
};

}  // namespace fe
