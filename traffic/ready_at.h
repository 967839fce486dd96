// A moment in a workload's dependency graph, in the form a message's start takes: the later of
// an absolute time and the delivery of the last of some messages plus a delay. Generators carry
// one per rank (when the rank is free to compute or send next) and hand it to the messages that
// rank sends.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/units.h"
#include "traffic/workload.h"

namespace fe {

struct ReadyAt {
  std::vector<uint32_t> gate;  // messages; empty: the moment is not_before itself
  Time delay;                  // after the last of gate is delivered
  Time not_before;             // absolute; already includes every compute since it was set

  // The moment `compute` later.
  ReadyAt After(Time compute) const { return {gate, delay + compute, not_before + compute}; }

  // When the last of `messages` is delivered (they start no earlier than this moment).
  ReadyAt Delivered(std::vector<uint32_t> messages) const {
    return {std::move(messages), Time::Zero(), not_before};
  }

  // Appends a message starting at this moment; returns its id.
  uint32_t Send(Flow flow, uint32_t job, uint32_t op, uint32_t iteration, Workload* w) const {
    flow.start = not_before;
    return w->Add(flow, gate, delay, job, op, iteration);
  }
};

// The later of a and b, when one form holds both: either is an absolute time, or both wait the
// same delay after their messages. nullopt otherwise (the caller knows which one dominates).
inline std::optional<ReadyAt> Later(const ReadyAt& a, const ReadyAt& b) {
  const Time not_before = std::max(a.not_before, b.not_before);
  if (a.gate.empty()) return ReadyAt{b.gate, b.delay, not_before};
  if (b.gate.empty()) return ReadyAt{a.gate, a.delay, not_before};
  if (a.delay != b.delay) return std::nullopt;
  ReadyAt both{a.gate, a.delay, not_before};
  both.gate.insert(both.gate.end(), b.gate.begin(), b.gate.end());
  return both;
}

}  // namespace fe
