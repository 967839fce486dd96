// A port has queues only for the priorities its fabric queues on, in priority order: a queue's
// index among them is its slot. These map priorities to slots and back, off the packet path (the
// path names a queue by its QueueId, both at once).
#pragma once

#include <bit>
#include <cstdint>

#include "congestion/egress_scheduler.h"
#include "dataplane/element.h"

namespace fe::dp {

inline constexpr uint8_t kAllPriorities = 0xFF;

// Queues of a port with a queue for each priority of the mask `priorities` (bit p: priority p),
// in priority order: the slot of priority p is the number of them below it, -1 if it has none.
inline int QueueSlotOf(uint8_t priorities, int prio) {
  if ((priorities & (1u << prio)) == 0) return -1;
  return std::popcount(static_cast<unsigned>(priorities & ((1u << prio) - 1)));
}
inline QueueId QueueIdOf(uint8_t priorities, uint8_t prio) {
  return QueueId{static_cast<uint8_t>(prio | QueueSlotOf(priorities, prio) << 3)};
}
// The priority of queue `slot`.
inline uint8_t QueuePriorityOf(uint8_t priorities, int slot) {
  unsigned m = priorities;
  for (int i = 0; i < slot; ++i) m &= m - 1;
  return static_cast<uint8_t>(std::countr_zero(m));
}
// A priority mask in slot space: the slots of those of `prios` the port has queues for.
uint8_t QueueSlotMask(uint8_t priorities, uint8_t prios);
// An egress scheduling config indexed by priority, reindexed by the queues of `priorities`. The
// order is kept, so strict priority and the round robin pick the same queues as before.
cong::EgressSchedulerConfig QueueSchedulerConfig(const cong::EgressSchedulerConfig& by_priority,
                                                 uint8_t priorities);

}  // namespace fe::dp
