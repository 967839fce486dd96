#include "dataplane/queue_slots.h"

namespace fe::dp {

uint8_t QueueSlotMask(uint8_t priorities, uint8_t prios) {
  uint8_t mask = 0;
  for (int p = 0; p < cong::kNumPriorities; ++p) {
    const int s = QueueSlotOf(priorities, p);
    if ((prios & (1u << p)) != 0 && s >= 0) mask |= static_cast<uint8_t>(1u << s);
  }
  return mask;
}

cong::EgressSchedulerConfig QueueSchedulerConfig(const cong::EgressSchedulerConfig& by_priority,
                                                 uint8_t priorities) {
  cong::EgressSchedulerConfig c;
  c.strict_mask = QueueSlotMask(priorities, by_priority.strict_mask);
  c.dwrr_mask = QueueSlotMask(priorities, by_priority.dwrr_mask);
  for (int p = 0; p < cong::kNumPriorities; ++p) {
    const int s = QueueSlotOf(priorities, p);
    if (s >= 0) c.quantum_bytes[s] = by_priority.quantum_bytes[p];
  }
  return c;
}

}  // namespace fe::dp
