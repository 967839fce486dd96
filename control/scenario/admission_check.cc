#include "control/scenario/admission_check.h"

#include <cstdio>

namespace fe::control {

bool AdmitsOnEmptyBuffer(const cong::BufferConfig& config, uint8_t prio, uint32_t frame_bytes) {
  if (config.priorities[prio].lossless || ((config.priorities_in_use >> prio) & 1) == 0) {
    return true;
  }
  cong::BufferAdmission empty(config);
  return cong::Admitted(empty.Admit(0, 0, prio, frame_bytes));
}

std::string EmptyQueueLimitText(const cong::BufferConfig& config, uint8_t prio) {
  const cong::BufferConfig::Priority& p = config.priorities[prio];
  char text[200];
  std::snprintf(text, sizeof(text), "alpha %.9g x %lld shared bytes + %lld reserved = %lld bytes",
                p.alpha_q16 / 65536.0, static_cast<long long>(config.shared_bytes),
                static_cast<long long>(p.reserved_bytes),
                static_cast<long long>(p.reserved_bytes + cong::buffer_internal::DynamicLimit(
                                                              p.alpha_q16, config.shared_bytes)));
  return text;
}

}  // namespace fe::control
