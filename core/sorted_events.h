// A domain's own events due in the window being run, sorted by (time, push order): the
// scheduler's local queue (core/scheduler.h).
#pragma once

#include <cstddef>
#include <vector>

#include "core/event_queue.h"

namespace fe {

// Few, and mostly pushed after the rest (a transmission's end, the next arrival on a link), so
// an insertion from the back is cheaper than a heap's sifting. Popped entries stay in front of
// head_ until the queue empties, or until a push finds the vector full: then they are dropped
// rather than the vector grown, so a domain that never lets it empty (each event pushing the
// next before a later one) holds at most twice what is pending, not every event it ever ran.
class SortedEvents {
 public:
  bool empty() const { return head_ == v_.size(); }
  size_t capacity() const { return v_.capacity(); }
  const Event& top() const { return v_[head_]; }
  Event Pop() {
    const Event e = v_[head_++];
    if (head_ == v_.size()) {
      v_.clear();
      head_ = 0;
    }
    return e;
  }
  void Push(const Event& e) {
    if (v_.size() == v_.capacity() && head_ > 0) [[unlikely]] {
      v_.erase(v_.begin(), v_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
    size_t i = v_.size();
    v_.emplace_back();
    for (; i > head_ && e.Before(v_[i - 1]); --i) v_[i] = v_[i - 1];
    StoreEvent(e, &v_[i]);
  }

 private:
  std::vector<Event> v_;
  size_t head_ = 0;
};

}  // namespace fe
