#include "core/scheduler.h"

namespace fe {

bool Scheduler::RunOne() {
  if (queue_.empty()) return false;
  const Event e = queue_.Pop();
  if (const Event* far = queue_.PeekAhead(3 * kPrefetchDistance)) {
    __builtin_prefetch(far->handler);
    __builtin_prefetch(reinterpret_cast<const char*>(far->handler) + 64);
  }
  if (const Event* mid = queue_.PeekAhead(2 * kPrefetchDistance))
    mid->handler->Prefetch(mid->arg, 0);
  if (const Event* near = queue_.PeekAhead(kPrefetchDistance))
    near->handler->Prefetch(near->arg, 1);
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
