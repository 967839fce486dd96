#include "core/scheduler.h"

#include <utility>

namespace fe {

namespace {
constexpr size_t kArity = 4;
}

void Scheduler::At(Time at, EventHandler* handler, uint64_t arg) {
  if (at < clock_.Now()) at = clock_.Now();
  heap_.push_back(Event{at, next_seq_++, handler, arg});
  SiftUp(heap_.size() - 1);
}

void Scheduler::SiftUp(size_t i) {
  Event e = heap_[i];
  while (i > 0) {
    const size_t parent = (i - 1) / kArity;
    if (!e.Before(heap_[parent])) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = e;
}

void Scheduler::SiftDown(size_t i) {
  const size_t n = heap_.size();
  Event e = heap_[i];
  for (;;) {
    const size_t first = i * kArity + 1;
    if (first >= n) break;
    size_t best = first;
    const size_t last = first + kArity < n ? first + kArity : n;
    for (size_t c = first + 1; c < last; ++c) {
      if (heap_[c].Before(heap_[best])) best = c;
    }
    if (!heap_[best].Before(e)) break;
    heap_[i] = heap_[best];
    i = best;
  }
  heap_[i] = e;
}

Scheduler::Event Scheduler::PopFront() {
  Event top = heap_.front();
  heap_.front() = heap_.back();
  heap_.pop_back();
  if (!heap_.empty()) SiftDown(0);
  return top;
}

bool Scheduler::RunOne() {
  if (heap_.empty()) return false;
  const Event e = PopFront();
  // The next event is known now: warm its handler object and, where the arg is an address (as
  // handlers may choose), what it points to. A prefetch of a non-address is harmless.
  if (!heap_.empty()) {
    __builtin_prefetch(heap_.front().handler);
    __builtin_prefetch(reinterpret_cast<const void*>(heap_.front().arg));
  }
  clock_.AdvanceTo(e.at);
  ++events_run_;
  e.handler->OnEvent(e.arg);
  return true;
}

uint64_t Scheduler::RunUntil(Time until, uint64_t max_events) {
  uint64_t n = 0;
  while (n < max_events && !heap_.empty() && heap_.front().at <= until) {
    RunOne();
    ++n;
  }
  return n;
}

}  // namespace fe
