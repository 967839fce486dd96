#include "core/scheduler.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "core/lane_workers.h"  // for the destructor of workers_

namespace fe {

Scheduler::Scheduler() = default;
Scheduler::~Scheduler() = default;

void Scheduler::EnableWindows(Time lookahead, uint32_t domains) {
  std::vector<Event> pending = TakePending();
  lookahead_ = lookahead;
  domains_ = std::min(domains, kMaxDomains);
  window_.Resize(domains_);
  for (const std::unique_ptr<Lane>& lane : lanes_) lane->window.Resize(domains_);
  offset_.assign(domains_, 0);
  if (lane_of_domain_.size() < domains_ && !lanes_.empty()) lane_of_domain_.resize(domains_, 0);
  // Events already scheduled move to where windowed mode keeps them (domain 0's apart).
  Repush(pending);
}

std::vector<Event> Scheduler::TakePending() {
  ReceiveHanded();
  std::vector<Event> pending;
  while (!queue_.empty()) pending.push_back(queue_.Pop());
  while (!global_.empty()) pending.push_back(global_.Pop());
  for (const std::unique_ptr<Lane>& lane : lanes_) {
    while (!lane->queue.empty()) pending.push_back(lane->queue.Pop());
  }
  return pending;
}

void Scheduler::Repush(const std::vector<Event>& pending) {
  for (const Event& e : pending) {
    if (lookahead_ == Time::Zero()) {
      queue_.Push(e);
    } else {
      PushWindowed(e);
    }
  }
}

void Scheduler::LookaheadViolated(const Event& e) const {
  Violated(running_domain_, e, Now(), lookahead_);
}

void Scheduler::Violated(uint32_t running_domain, const Event& e, Time now, Time lookahead) {
  // The model broke its promise (a link shorter than the lookahead): running on would silently
  // reorder cause and effect.
  std::fprintf(stderr,
               "fabric-emu: internal error: domain %u scheduled an event of domain %u %lld ps "
               "ahead, inside the %lld ps lookahead\n",
               running_domain, DomainOf(e), static_cast<long long>((e.at - now).ps()),
               static_cast<long long>(lookahead.ps()));
  std::abort();
}

void Scheduler::DiscardAll() {
  for (const Event& e : TakePending()) e.handler->Discard(e.arg);
}

size_t Scheduler::pending() const {
  size_t n = queue_.size() + global_.size() + (handed_.pending ? handed_.count : 0);
  for (const std::unique_ptr<Lane>& lane : lanes_) n += lane->queue.size();
  return n;
}

Time Scheduler::DomainsNextAt() {
  Time next = queue_.empty() ? Time::Infinite() : queue_.top().at;
  if (handed_.pending) next = std::min(next, handed_.next_at);
  for (const std::unique_ptr<Lane>& lane : lanes_) {
    if (!lane->queue.empty()) next = std::min(next, lane->queue.top().at);
  }
  return next;
}

Time Scheduler::NextAt() {
  const Time global = global_.empty() ? Time::Infinite() : global_.top().at;
  return std::min(DomainsNextAt(), global);
}

bool Scheduler::RunOne() {
  if (empty()) return false;
  if (!global_.empty() && (queue_.empty() || global_.top().Before(queue_.top()))) {
    Run(global_.Pop());
    return true;
  }
  const Event e = queue_.Pop();
  WarmAhead(queue_.PeekAhead(3 * kPrefetchDistance), queue_.PeekAhead(2 * kPrefetchDistance));
  if (const Event* near = queue_.PeekAhead(kPrefetchDistance))
    near->handler->Prefetch(near->arg, EventHandler::kWarmDeep);
  Run(e);
  return true;
}

uint64_t Scheduler::RunUntil(Time until, uint64_t max_events, Time start_by) {
  uint64_t n = 0;
  if (lookahead_ == Time::Zero()) {
    const Time last = std::min(until, start_by);
    while (n < max_events && !queue_.empty() && queue_.top().at <= last) {
      RunOne();
      ++n;
    }
    // One event at a time: any stop is a clean cut.
    const bool all_up_to_last = queue_.empty() || queue_.top().at > last;
    ran_until_ = std::max(Now(), all_up_to_last ? last : Time::Zero()) + Time::FromPs(1);
    return n;
  }
  while (n < max_events && !empty()) {
    const Time domains = DomainsNextAt();
    const Time global = global_.empty() ? Time::Infinite() : global_.top().at;
    const Time next = std::min(domains, global);
    if (next > until) {
      ran_until_ = std::max(ran_until_, until + Time::FromPs(1));
      break;
    }
    if (next > start_by) {
      ran_until_ = std::max(ran_until_, start_by + Time::FromPs(1));
      break;
    }
    if (global <= domains) {
      Run(global_.Pop());
      ran_until_ = global + Time::FromPs(1);
      ++n;
      continue;
    }
    Time end = domains + lookahead_;
    if (global < end) end = global;
    if (until < end) end = until + Time::FromPs(1);
    n += RunWindow(end);
    ran_until_ = end;
  }
  // Between calls the queues hold every pending event, as they do with one core.
  ReceiveHanded();
  return n;
}

uint64_t Scheduler::RunWindow(Time end) {
  if (!lanes_.empty()) return RunWindowOnLanes(end);
  window_.Take(&queue_, end, kWarmAheadSlots, &no_event_);
  in_window_ = true;
  window_end_ = end;
  Time latest = clock_.Now();
  uint64_t n = 0;
  for (const DomainWindow::Span& s : window_.spans()) {
    running_domain_ = s.domain;
    n += RunDomain(window_.events() + s.begin, window_.events() + s.end, window_.events_end(),
                   &local_, &latest, [this](const Event& e) { Run(e); });
  }
  in_window_ = false;
  clock_.AdvanceTo(latest);
  return n;
}

}  // namespace fe
