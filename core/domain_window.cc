#include "core/domain_window.h"

#include "core/prefault.h"

namespace fe {

void DomainWindow::Resize(uint32_t domains) {
  rank_.assign(domains, 0);
  count_.assign(domains, 0);
  active_.assign((domains + 63) / 64, 0);
}

void DomainWindow::Take(EventQueue* queue, Time end, size_t slack, EventHandler* sentinel) {
  for (const Span& s : spans_) active_[s.domain / 64] = 0;
  spans_.clear();
  taken_.clear();
  queue->TakeBefore(end, &taken_);
  size_t total = 0;
  for (const std::span<const Event> taken : taken_) {
    total += taken.size();
    for (const Event& e : taken) {
      const uint32_t domain = DomainOf(e);
      if (count_[domain]++ == 0) active_[domain / 64] |= uint64_t{1} << (domain % 64);
    }
  }
  uint32_t offset = 0;
  for (size_t word = 0; word < active_.size(); ++word) {
    for (uint64_t bits = active_[word]; bits != 0; bits &= bits - 1) {
      const auto domain = static_cast<uint32_t>(word * 64 + __builtin_ctzll(bits));
      rank_[domain] = static_cast<uint32_t>(spans_.size());
      spans_.push_back(Span{offset, offset, domain});
      offset += count_[domain];
      count_[domain] = 0;
    }
  }
  if (total + slack > ordered_.capacity()) {
    // Every slot is written below: the old events need no copy.
    ordered_.clear();
    ReservePrefaulted(&ordered_, 2 * (total + slack));
  }
  ordered_.resize(total + slack);
  for (size_t k = total; k < ordered_.size(); ++k) {
    ordered_[k] = Event{Time::Infinite(), 0, sentinel, 0};
  }
  for (const std::span<const Event> taken : taken_) {
    for (const Event& e : taken) ordered_[spans_[rank_[DomainOf(e)]].end++] = e;
  }
  // The buckets' chunks are free for the pushes of the window.
  queue->ReleaseTaken();
  Event* const events = ordered_.data();
  for (const Span& s : spans_) {
    // A domain's events came in buckets of time, each in push order: nearly sorted already.
    for (uint32_t j = s.begin + 1; j < s.end; ++j) {
      if (!events[j].Before(events[j - 1])) continue;
      const Event e = events[j];
      uint32_t k = j;
      for (; k > s.begin && e.Before(events[k - 1]); --k) events[k] = events[k - 1];
      events[k] = e;
    }
  }
}

}  // namespace fe
