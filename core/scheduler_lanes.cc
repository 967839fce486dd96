// The scheduler's multi-core windows (docs/multicore.md, "How a run is split"). Each lane holds
// the events of its domains in a calendar of its own, takes and groups its share of a window
// there, runs it, and helps run what another lane has not begun. What a domain pushes for a later
// window waits in an outbox by destination lane until the window is over; as the next begins,
// each lane numbers what it receives from the window's push counts by domain number, the order
// one core gives.
#include <algorithm>
#include <atomic>

#include "core/lane_workers.h"
#include "core/prefault.h"
#include "core/scheduler.h"

namespace fe {

void Scheduler::EnableCores(uint32_t lanes, std::vector<uint32_t> lane_of_domain,
                            const std::function<void()>& on_thread_start) {
  std::vector<Event> pending = TakePending();
  workers_.reset();
  lanes_.clear();
  lane_of_domain_.clear();
  if (lanes > 1) {
    lane_of_domain_ = std::move(lane_of_domain);
    if (lane_of_domain_.size() < domains_) lane_of_domain_.resize(domains_, 0);
    // Domain 0's events wait in the caller's heap, past the lanes' outboxes.
    if (!lane_of_domain_.empty()) lane_of_domain_[0] = lanes;
    for (uint32_t i = 0; i < lanes; ++i) {
      auto lane = std::make_unique<Lane>();
      lane->lane_of_domain = lane_of_domain_.data();
      for (std::vector<std::vector<Handed>>& set : lane->outboxes) set.resize(lanes + 1);
      lane->earliest_handed.resize(lanes + 1);
      lane->window.Resize(domains_);
      lanes_.push_back(std::move(lane));
    }
    workers_ = std::make_unique<LaneWorkers>(lanes, on_thread_start);
  }
  Repush(pending);
}

uint64_t Scheduler::RunWindowOnLanes(Time end) {
  const uint32_t parity = outbox_parity_;
  for (const std::unique_ptr<Lane>& lane : lanes_) {
    lane->now = lane->latest = clock_.Now();
    lane->window_end = end;
    lane->lookahead = lookahead_;
    // Above every sequence number given out: the window's own events come after what was
    // pushed before, and among themselves in their push order, as with one core.
    lane->next_local_seq = next_seq_;
    lane->events_run = 0;
    lane->outbox = &lane->outboxes[parity];
    std::fill(lane->earliest_handed.begin(), lane->earliest_handed.end(), Time::Infinite());
    lane->ready.store(false, std::memory_order_relaxed);
    lane->claimed.store(0, std::memory_order_relaxed);
  }
  // What the window before handed on is received first: some of it is due in this window.
  const bool receive = handed_.pending;
  const uint64_t base = handed_.base;
  handed_.pending = false;
  workers_->Run([this, end, receive, base, parity](uint32_t lane) {
    if (receive) Receive(lane, base, parity ^ 1);
    RunLane(lane, end);
  });

  Time latest = clock_.Now();
  uint64_t n = 0;
  bool serial_calls = false;
  for (const std::unique_ptr<Lane>& lane : lanes_) {
    n += lane->events_run;
    if (lane->latest > latest) latest = lane->latest;
    serial_calls |= !lane->serial_calls.empty();
  }
  if (serial_calls) {
    HandOverInOrder(end);
  } else {
    HandOn(parity);
  }
  events_run_ += n;
  clock_.AdvanceTo(latest);
  return n;
}

void Scheduler::HandOn(uint32_t parity) {
  const uint64_t base = next_seq_;
  next_seq_ += NumberPushes();
  const size_t lanes = lanes_.size();
  handed_ = {.pending = true, .base = base, .count = 0, .next_at = Time::Infinite()};
  for (const std::unique_ptr<Lane>& from : lanes_) {
    for (size_t to = 0; to < lanes; ++to) {
      handed_.count += from->outboxes[parity][to].size();
      handed_.next_at = std::min(handed_.next_at, from->earliest_handed[to]);
    }
    // Domain 0's heap is the caller's: it decides with it where the next window starts.
    std::vector<Handed>& zero = from->outboxes[parity][lanes];
    for (const Handed& h : zero) global_.Push(Numbered(h, base));
    zero.clear();
  }
  outbox_parity_ = parity ^ 1;
}

void Scheduler::ReceiveHanded() {
  if (!handed_.pending) return;
  const uint64_t base = handed_.base;
  const uint32_t parity = outbox_parity_ ^ 1;
  handed_.pending = false;
  workers_->Run([this, base, parity](uint32_t lane) { Receive(lane, base, parity); });
}

void Scheduler::RunLane(uint32_t index, Time end) {
  Lane* const lane = lanes_[index].get();
  lane->window.Take(&lane->queue, end, kWarmAheadSlots, &no_event_);
  lane->pushes_by_rank.resize(lane->window.spans().size());
  lane->ready.store(true, std::memory_order_release);
  t_lane_ = lane;
  // Its own domains first, then what is left of the others': a lane the host slowed, or given
  // more of the window's events, is helped. Which lane runs a domain changes nothing but speed.
  const auto lanes = static_cast<uint32_t>(lanes_.size());
  for (uint32_t k = 0; k < lanes; ++k) {
    Lane* const owner = lanes_[(index + k) % lanes].get();
    while (!owner->ready.load(std::memory_order_acquire)) __builtin_ia32_pause();
    for (;;) {
      const auto [first, last] = Claim(owner, k > 0);
      if (first == last) break;
      const Event* const warm_last = owner->window.events() + owner->window.spans()[last - 1].end;
      for (uint32_t rank = first; rank < last; ++rank) RunRank(lane, owner, rank, warm_last);
    }
  }
  t_lane_ = nullptr;
}

std::pair<uint32_t, uint32_t> Scheduler::Claim(Lane* owner, bool helping) {
  // A helper takes the owner's last domains, the owner its first: each window the helper runs
  // much the same domains, whose state is then still in its cache from the window before,
  // where taking the next ones in line gave it a different few every window.
  const auto ranks = static_cast<uint32_t>(owner->window.spans().size());
  const uint64_t add = helping ? uint64_t{kClaimRanks} << 32 : kClaimRanks;
  const uint64_t before = owner->claimed.fetch_add(add, std::memory_order_relaxed);
  const auto front = static_cast<uint32_t>(before);
  const auto back = static_cast<uint32_t>(before >> 32);
  if (front + back >= ranks) return {0, 0};
  const uint32_t end = ranks - back;  // past the last rank unclaimed before this claim
  if (helping) return {end - std::min(end - front, kClaimRanks), end};
  return {front, std::min(front + kClaimRanks, end)};
}

void Scheduler::Lane::GrowOutbox(std::vector<Handed>* box) {
  constexpr size_t kFirstHanded = 1024;
  ReservePrefaulted(box, std::max(kFirstHanded, 2 * box->capacity()));
}

void Scheduler::RunRank(Lane* lane, Lane* owner, uint32_t rank, const Event* warm_last) {
  const DomainWindow::Span& s = owner->window.spans()[rank];
  lane->running_domain = s.domain;
  lane->pushes = 0;
  const Event* events = owner->window.events();
  lane->events_run += RunDomain(events + s.begin, events + s.end, warm_last, &lane->local,
                                &lane->latest, [lane](const Event& e) {
                                  lane->now = e.at;
                                  e.handler->OnEvent(e.arg);
                                });
  owner->pushes_by_rank[rank] = lane->pushes;
}

uint64_t Scheduler::NumberPushes() {
  uint64_t total = 0;
  const size_t words = lanes_[0]->window.domain_bits().size();
  for (size_t word = 0; word < words; ++word) {
    uint64_t bits = 0;
    for (const std::unique_ptr<Lane>& lane : lanes_) bits |= lane->window.domain_bits()[word];
    for (; bits != 0; bits &= bits - 1) {
      const auto domain = static_cast<uint32_t>(word * 64 + __builtin_ctzll(bits));
      const Lane& owner = *lanes_[lane_of_domain_[domain]];
      offset_[domain] = total;
      total += owner.pushes_by_rank[owner.window.rank_of(domain)];
    }
  }
  return total;
}

void Scheduler::Receive(uint32_t index, uint64_t base, uint32_t parity) {
  Lane* const lane = lanes_[index].get();
  for (const std::unique_ptr<Lane>& from : lanes_) {
    std::vector<Handed>& outbox = from->outboxes[parity][index];
    for (const Handed& h : outbox) lane->queue.Push(Numbered(h, base));
    outbox.clear();
  }
}

void Scheduler::HandOverInOrder(Time end) {
  in_order_.clear();
  for (const std::unique_ptr<Lane>& lane : lanes_) {
    for (std::vector<Handed>& outbox : *lane->outbox) {
      in_order_.insert(in_order_.end(), outbox.begin(), outbox.end());
      outbox.clear();
    }
    in_order_.insert(in_order_.end(), lane->serial_calls.begin(), lane->serial_calls.end());
    lane->serial_calls.clear();
  }
  std::sort(in_order_.begin(), in_order_.end(), [](const Handed& a, const Handed& b) {
    return a.sender < b.sender || (a.sender == b.sender && a.index < b.index);
  });
  // A Serial call runs where one core would have made it, at its time; anything it schedules
  // inside the window would be out of order (checked as one core checks a domain's push to
  // another).
  in_window_ = true;
  window_end_ = end;
  running_domain_ = kMaxDomains;
  for (const Handed& h : in_order_) {
    if (h.domain == kSerialCall) {
      clock_.AdvanceTo(h.at);
      h.handler->OnEvent(h.arg);
    } else {
      PushWindowed(Event{h.at, (next_seq_++ << kDomainBits) | h.domain, h.handler, h.arg});
    }
  }
  in_window_ = false;
}

}  // namespace fe
