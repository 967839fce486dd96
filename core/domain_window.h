// One window's events of a set of domains, grouped by domain: the domains in the order of their
// numbers, each domain's events in (time, push order). The order of domains is the model's, not
// the calendar's: one core runs them so and numbers what they push so, and a lane holding some
// of the domains can rebuild that numbering from counts alone (docs/multicore.md).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/event_queue.h"

namespace fe {

class DomainWindow {
 public:
  struct Span {
    uint32_t begin;  // in events()
    uint32_t end;
    uint32_t domain;
  };

  // Domains are numbered below `domains`.
  void Resize(uint32_t domains);
  // Takes every event before `end` out of *queue and groups it. Past the last event, `slack`
  // sentinel events of `sentinel` (a handler that does nothing, due at infinity) let a run warm
  // the events a few places on without testing where the window ends.
  void Take(EventQueue* queue, Time end, size_t slack, EventHandler* sentinel);

  const std::vector<Span>& spans() const { return spans_; }
  const Event* events() const { return ordered_.data(); }
  // Past the last sentinel.
  const Event* events_end() const { return ordered_.data() + ordered_.size(); }
  // The window's domains, a bit each (bit d % 64 of word d / 64), until the next Take.
  const std::vector<uint64_t>& domain_bits() const { return active_; }
  // The index in spans() of a domain of the window.
  uint32_t rank_of(uint32_t domain) const { return rank_[domain]; }

 private:
  std::vector<std::span<const Event>> taken_;  // as the queue holds them
  std::vector<Event> ordered_;
  std::vector<Span> spans_;
  std::vector<uint32_t> rank_;    // by domain: its index in spans_, for the window's domains
  std::vector<uint32_t> count_;   // by domain: its events in the window, while they are counted
  std::vector<uint64_t> active_;  // the window's domains
};

}  // namespace fe
