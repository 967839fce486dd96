// The scheduler's pending events, in (time, insertion order). Near events (within a window of a
// few microseconds, where a fabric's link arrivals and transmissions fall) sit in a ring of
// nanosecond buckets, each a small heap; later ones (timers) wait in a 4-ary heap and move into
// the ring as the window reaches them. Pushing or popping a near event then costs a few
// comparisons in a small heap instead of a walk down one large heap.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/units.h"

namespace fe {

class EventHandler;

struct Event {
  Time at;
  uint64_t seq;
  EventHandler* handler;
  uint64_t arg;
  bool Before(const Event& o) const { return at < o.at || (at == o.at && seq < o.seq); }
};

// A 4-ary min-heap of events: half the depth of a binary heap, and a node's children share a
// cache line.
class EventHeap {
 public:
  bool empty() const { return v_.empty(); }
  size_t size() const { return v_.size(); }
  const Event& top() const { return v_.front(); }
  void Push(const Event& e);
  Event Pop();

 private:
  void SiftUp(size_t i);
  void SiftDown(size_t i);
  std::vector<Event> v_;
};

class EventQueue {
 public:
  EventQueue();
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  // The earliest event; the queue must not be empty.
  const Event& top() const { return buckets_[cursor_ & kMask].top(); }
  // e.at must not be earlier than the last popped event's time.
  void Push(const Event& e);
  // Removes the earliest event; the queue must not be empty.
  Event Pop();

 private:
  static constexpr int kBucketShift = 10;     // 1.024 ns per bucket
  static constexpr uint64_t kBuckets = 4096;  // a 4.2 us window
  static constexpr uint64_t kMask = kBuckets - 1;
  static uint64_t BucketOf(Time t) { return static_cast<uint64_t>(t.ps()) >> kBucketShift; }
  // Moves the cursor to the bucket holding the earliest event, pulling in timers that enter the
  // window on the way.
  void Settle();
  void PullTimersInto(uint64_t window_end);
  void Rewind(uint64_t b);
  void PushNear(uint64_t b, const Event& e);
  // Ring slots from `from` on (circularly) to the first non-empty one: a bitmap scan, so a
  // sparse ring (real-time mode, the end of a run) costs as little as a dense one.
  uint64_t DistanceToNextOccupied(uint64_t from) const;

  std::vector<EventHeap> buckets_;
  std::array<uint64_t, kBuckets / 64> occupied_{};  // bit i: buckets_[i] is not empty
  uint64_t cursor_ = 0;   // absolute bucket index of the window's first bucket
  uint64_t highest_ = 0;  // no ring event lies in a later bucket (an upper bound, not exact)
  size_t near_ = 0;       // events in the ring
  size_t size_ = 0;
  EventHeap far_;
};

}  // namespace fe
