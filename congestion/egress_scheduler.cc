#include "congestion/egress_scheduler.h"

#include <string>

namespace fe::cong {
namespace {

constexpr int64_t kMaxQuantumBytes = int64_t{1} << 24;

}  // namespace

StatusOr<EgressSchedulerConfig> Compile(const EgressSchedulerParams& params) {
  EgressSchedulerConfig config;
  for (int i = 0; i < kNumPriorities; ++i) {
    const EgressQueueParams& q = params.queues[i];
    if (q.strict) {
      config.strict_mask |= static_cast<uint8_t>(1u << i);
      continue;
    }
    if (q.quantum_bytes < 1 || q.quantum_bytes > kMaxQuantumBytes) {
      return Status::Error("queues[" + std::to_string(i) + "].quantum_bytes (" +
                           std::to_string(q.quantum_bytes) + ") outside [1, 2^24]");
    }
    config.dwrr_mask |= static_cast<uint8_t>(1u << i);
    config.quantum_bytes[i] = static_cast<uint32_t>(q.quantum_bytes);
  }
  return config;
}

}  // namespace fe::cong
