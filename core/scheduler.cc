#include "core/scheduler.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace fe {

namespace {
constexpr uint32_t kNoRank = UINT32_MAX;
}

void Scheduler::EnableWindows(Time lookahead, uint32_t domains) {
  lookahead_ = lookahead;
  rank_.assign(std::min(domains, kMaxDomains), kNoRank);
  // Events already scheduled move to where windowed mode keeps them (domain 0's apart).
  std::vector<Event> pending;
  while (!queue_.empty()) pending.push_back(queue_.Pop());
  while (!global_.empty()) pending.push_back(global_.Pop());
  for (const Event& e : pending) {
    if (lookahead_ == Time::Zero() || DomainOf(e) != 0) {
      queue_.Push(e);
    } else {
      global_.Push(e);
    }
  }
}

void Scheduler::LookaheadViolated(const Event& e) const {
  // The model broke its promise (a link shorter than the lookahead): running on would silently
  // reorder cause and effect.
  std::fprintf(stderr,
               "fabric-emu: internal error: domain %u scheduled an event of domain %u %lld ps "
               "ahead, inside the %lld ps lookahead\n",
               running_domain_, DomainOf(e), static_cast<long long>((e.at - Now()).ps()),
               static_cast<long long>(lookahead_.ps()));
  std::abort();
}

void Scheduler::DiscardAll() {
  while (!queue_.empty()) {
    const Event e = queue_.Pop();
    e.handler->Discard(e.arg);
  }
  while (!global_.empty()) {
    const Event e = global_.Pop();
    e.handler->Discard(e.arg);
  }
}

Time Scheduler::NextAt() {
  const Time domains = queue_.empty() ? Time::Infinite() : queue_.top().at;
  const Time global = global_.empty() ? Time::Infinite() : global_.top().at;
  return std::min(domains, global);
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
    near->handler->Prefetch(near->arg, 1);
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
    const Time domains = queue_.empty() ? Time::Infinite() : queue_.top().at;
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
  return n;
}

void Scheduler::GroupByDomain() {
  spans_.clear();
  size_t total = 0;
  for (const std::span<const Event> taken : taken_) total += taken.size();
  event_rank_.resize(total);
  size_t i = 0;
  for (const std::span<const Event> taken : taken_) {
    for (const Event& e : taken) {
      uint32_t& rank = rank_[DomainOf(e)];
      if (rank == kNoRank) {
        rank = static_cast<uint32_t>(spans_.size());
        spans_.push_back(Span{0, 0});
      }
      ++spans_[rank].end;  // a count until the offsets below
      event_rank_[i++] = rank;
    }
  }
  uint32_t offset = 0;
  for (Span& s : spans_) {
    const uint32_t count = s.end;
    s.begin = s.end = offset;
    offset += count;
  }
  ordered_.resize(total + kWarmAheadSlots);
  for (size_t k = total; k < ordered_.size(); ++k)
    ordered_[k] = Event{Time::Infinite(), 0, &no_event_, 0};
  i = 0;
  for (const std::span<const Event> taken : taken_) {
    for (const Event& e : taken) ordered_[spans_[event_rank_[i++]].end++] = e;
  }
  // The buckets' chunks are free for the pushes of the window.
  queue_.ReleaseTaken();
  for (const Span& s : spans_) {
    rank_[DomainOf(ordered_[s.begin])] = kNoRank;
    // A domain's events came in buckets of time, each in push order: nearly sorted already.
    Event* span = ordered_.data();
    for (uint32_t j = s.begin + 1; j < s.end; ++j) {
      if (!span[j].Before(span[j - 1])) continue;
      const Event e = span[j];
      uint32_t k = j;
      for (; k > s.begin && e.Before(span[k - 1]); --k) span[k] = span[k - 1];
      span[k] = e;
    }
  }
}

uint64_t Scheduler::RunWindow(Time end) {
  taken_.clear();
  queue_.TakeBefore(end, &taken_);
  GroupByDomain();
  in_window_ = true;
  window_end_ = end;
  Time latest = clock_.Now();
  uint64_t n = 0;
  for (const Span& s : spans_) {
    running_domain_ = DomainOf(ordered_[s.begin]);
    const Event* next = ordered_.data() + s.begin;
    const Event* const last = ordered_.data() + s.end;
    for (;;) {
      if (!local_.empty() && (next == last || local_.top().Before(*next))) {
        const Event e = local_.Pop();
        if (e.at > latest) latest = e.at;
        Run(e);
        ++n;
        continue;
      }
      if (next == last) break;
      // The window's events are known in order: warm the ones a few places on, across domains
      // (the sentinels past the last make every place valid). Stage 0 only: what stage 1 warms
      // (the receiving node's output port, queue and counters) is already in cache when a node's
      // events run together, and its parse and route would be done twice (k = 8 and 16: 2 to 5%
      // faster without; +15% CPU at k = 16 even with the route kept for the receive).
      WarmAhead(next + 3 * kPrefetchDistance, next + 2 * kPrefetchDistance);
      // ordered_ does not change while the window runs: the event can be run where it is.
      const Event& e = *next++;
      if (e.at > latest) latest = e.at;
      Run(e);
      ++n;
    }
  }
  in_window_ = false;
  clock_.AdvanceTo(latest);
  return n;
}

}  // namespace fe
