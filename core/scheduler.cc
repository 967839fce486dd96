#include "core/scheduler.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "core/lane_workers.h"

namespace fe {

namespace {
constexpr uint32_t kNoRank = UINT32_MAX;
}

Scheduler::Scheduler() = default;
Scheduler::~Scheduler() = default;

void Scheduler::EnableCores(uint32_t lanes, std::vector<uint32_t> lane_of_domain,
                            const std::function<void()>& on_thread_start) {
  workers_.reset();
  lanes_.clear();
  lane_of_domain_ = std::move(lane_of_domain);
  if (lanes <= 1) return;
  lanes_.resize(lanes);
  claims_ = std::make_unique<Claim[]>(lanes);
  workers_ = std::make_unique<LaneWorkers>(lanes, on_thread_start);
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
        spans_.push_back(Span{0, 0, DomainOf(e)});
      }
      ++spans_[rank].end;  // a count until the offsets below
      event_rank_[i++] = rank;
    }
  }
  uint32_t offset = 0;
  const auto place = [&offset](Span& s) {
    const uint32_t count = s.end;
    s.begin = s.end = offset;
    offset += count;
  };
  if (lanes_.empty()) {
    for (Span& s : spans_) place(s);
  } else {
    // Each lane's domains side by side, in the window's order: a lane warming the events a few
    // places on then warms its own next domain's, not another lane's.
    for (Lane& lane : lanes_) lane.ranks.clear();
    for (uint32_t rank = 0; rank < spans_.size(); ++rank) {
      lanes_[lane_of_domain_[spans_[rank].domain]].ranks.push_back(rank);
    }
    for (const Lane& lane : lanes_) {
      for (const uint32_t rank : lane.ranks) place(spans_[rank]);
    }
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
    rank_[s.domain] = kNoRank;
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

template <typename RunFn>
[[gnu::always_inline]] inline uint64_t Scheduler::RunDomain(const Event* next,
                                                            const Event* const last,
                                                            SortedEvents* local, Time* latest,
                                                            RunFn&& run) {
  uint64_t n = 0;
  for (;;) {
    if (!local->empty() && (next == last || local->top().Before(*next))) {
      const Event e = local->Pop();
      if (e.at > *latest) *latest = e.at;
      run(e);
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
    if (e.at > *latest) *latest = e.at;
    run(e);
    ++n;
  }
  return n;
}

uint64_t Scheduler::RunWindow(Time end) {
  if (!lanes_.empty()) return RunWindowOnLanes(end);
  taken_.clear();
  queue_.TakeBefore(end, &taken_);
  GroupByDomain();
  in_window_ = true;
  window_end_ = end;
  Time latest = clock_.Now();
  uint64_t n = 0;
  for (const Span& s : spans_) {
    running_domain_ = s.domain;
    n += RunDomain(ordered_.data() + s.begin, ordered_.data() + s.end, &local_, &latest,
                   [this](const Event& e) { Run(e); });
  }
  in_window_ = false;
  clock_.AdvanceTo(latest);
  return n;
}

void Scheduler::RunLane(uint32_t index) {
  Lane* const lane = &lanes_[index];
  t_lane_ = lane;
  // Its own domains first, then what is left of the others': a lane the host slowed, or given
  // more of the window's events, is helped. Which lane runs a domain changes nothing but speed.
  const auto lanes = static_cast<uint32_t>(lanes_.size());
  for (uint32_t k = 0; k < lanes; ++k) {
    const uint32_t owner = (index + k) % lanes;
    const std::vector<uint32_t>& ranks = lanes_[owner].ranks;
    std::atomic<uint32_t>& claimed = claims_[owner].next;
    for (;;) {
      const uint32_t first = claimed.fetch_add(kClaimRanks, std::memory_order_relaxed);
      if (first >= ranks.size()) break;
      const auto last = static_cast<uint32_t>(std::min<size_t>(first + kClaimRanks, ranks.size()));
      for (uint32_t i = first; i < last; ++i) RunRank(lane, index, ranks[i]);
      if (index == 0) HandOverDone();
    }
  }
  t_lane_ = nullptr;
}

void Scheduler::RunRank(Lane* lane, uint32_t index, uint32_t rank) {
  const Span& s = spans_[rank];
  OutboxRange& out = outbox_of_rank_[rank];
  out.lane = index;
  out.begin = lane->outbox.size();
  lane->made_serial_call = false;
  lane->running_domain = s.domain;
  lane->events_run += RunDomain(ordered_.data() + s.begin, ordered_.data() + s.end, &lane->local,
                                &lane->latest, [lane](const Event& e) {
                                  lane->now = e.at;
                                  e.handler->OnEvent(e.arg);
                                });
  out.end = lane->outbox.size();
  out.serial_call = lane->made_serial_call;
  rank_done_[rank].store(1, std::memory_order_release);
}

void Scheduler::HandOverDone() {
  while (!hand_over_stalled_ && handed_ < spans_.size() &&
         rank_done_[handed_].load(std::memory_order_acquire) != 0) {
    if (outbox_of_rank_[handed_].serial_call) {
      hand_over_stalled_ = true;
      return;
    }
    HandOver(handed_++);
  }
}

void Scheduler::HandOver(uint32_t rank) {
  const OutboxRange r = outbox_of_rank_[rank];
  const EventLog& outbox = lanes_[r.lane].outbox;
  for (uint32_t i = r.begin; i < r.end; ++i) {
    Event e = outbox[i];
    if (e.seq == kSerialSeq) {
      clock_.AdvanceTo(e.at);
      e.handler->OnEvent(e.arg);
      continue;
    }
    const auto domain = static_cast<uint32_t>(e.seq);
    e.seq = (next_seq_++ << kDomainBits) | domain;
    if (domain == 0) {
      global_.Push(e);
    } else {
      queue_.Push(e);
    }
  }
}

uint64_t Scheduler::RunWindowOnLanes(Time end) {
  taken_.clear();
  queue_.TakeBefore(end, &taken_);
  GroupByDomain();
  for (Lane& lane : lanes_) {
    lane.now = lane.latest = clock_.Now();
    lane.window_end = end;
    lane.lookahead = lookahead_;
    // Above every sequence number given out: the window's own events come after what was
    // pushed before, and among themselves in their push order, as with one core.
    lane.next_local_seq = next_seq_;
    lane.events_run = 0;
    lane.outbox.clear();
  }
  outbox_of_rank_.resize(spans_.size());
  if (rank_done_size_ < spans_.size()) {
    rank_done_size_ = spans_.size() * 2;
    rank_done_ = std::make_unique<std::atomic<uint8_t>[]>(rank_done_size_);
  }
  for (uint32_t rank = 0; rank < spans_.size(); ++rank) {
    rank_done_[rank].store(0, std::memory_order_relaxed);
  }
  handed_ = 0;
  hand_over_stalled_ = false;
  for (uint32_t lane = 0; lane < lanes_.size(); ++lane) {
    claims_[lane].next.store(0, std::memory_order_relaxed);
  }
  workers_->Run([this](uint32_t lane) { RunLane(lane); });

  // What the domains handed on, in one core's order: a later push to the same domain at the
  // same time then still runs after an earlier one. A Serial call runs where it was made, at its
  // time; anything it schedules inside the window would be out of order (checked as one core
  // checks a domain's push to another).
  in_window_ = true;
  window_end_ = end;
  running_domain_ = kMaxDomains;
  Time latest = clock_.Now();
  uint64_t n = 0;
  for (const Lane& lane : lanes_) {
    n += lane.events_run;
    if (lane.latest > latest) latest = lane.latest;
  }
  while (handed_ < spans_.size()) HandOver(handed_++);
  in_window_ = false;
  events_run_ += n;
  clock_.AdvanceTo(latest);
  return n;
}

}  // namespace fe
