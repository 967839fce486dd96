#include "core/scheduler.h"

namespace fe {

void Scheduler::At(Time at, EventHandler* handler, uint64_t arg) {
  if (at < clock_.Now()) at = clock_.Now();
  queue_.Push(Event{at, next_seq_++, handler, arg});
}

bool Scheduler::RunOne() {
  if (queue_.empty()) return false;
  const Event e = queue_.Pop();
  // The next event is known now: warm its handler object and, where the arg is an address (as
  // handlers may choose), what it points to. A prefetch of a non-address is harmless.
  if (!queue_.empty()) {
    __builtin_prefetch(queue_.top().handler);
    __builtin_prefetch(reinterpret_cast<const void*>(queue_.top().arg));
  }
  clock_.AdvanceTo(e.at);
  ++events_run_;
  e.handler->OnEvent(e.arg);
  return true;
}

uint64_t Scheduler::RunUntil(Time until, uint64_t max_events) {
  uint64_t n = 0;
  while (n < max_events && !queue_.empty() && queue_.top().at <= until) {
    RunOne();
    ++n;
  }
  return n;
}

}  // namespace fe
