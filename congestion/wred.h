// WRED with ECN on the instantaneous queue length, as datacenter switches run it for DCQCN
// (RED of Floyd and Jacobson without the averaging; ECN marking per RFC 3168):
//
//   q <= kmin            enqueue
//   kmin < q <= kmax     "hit" with p = pmax * (q - kmin) / (kmax - kmin)
//   q > kmax             hit always
//
// A hit marks an ECT packet CE. A non-ECT packet cannot be marked: on a lossy queue a hit drops
// it (RED), on a lossless queue it is enqueued (dropping would defeat PFC). The caller owns the
// random stream and passes one draw per decision, so a run is reproducible from its seed.
#pragma once

#include <cstdint>

#include "core/status.h"

namespace fe::cong {

struct WredParams {
  // Disabled: never marks nor drops (compiles to thresholds no queue reaches, so the hot path
  // has no extra branch).
  bool enabled = true;
  int64_t kmin_bytes = 5 * 1024;
  int64_t kmax_bytes = 200 * 1024;
  double pmax = 0.01;  // in [0, 1]
  // Decide when the packet leaves the queue (on the queue it leaves behind) instead of on
  // arrival. The decision rule is the same; only the switch's moment of asking differs.
  bool mark_at_dequeue = false;
};

struct WredConfig {
  int64_t kmin_bytes = 0;
  int64_t kmax_bytes = 0;
  // pmax / (kmax - kmin) in units of 2^-64 per byte, so that the hit probability in units of
  // 2^-32 is ((q - kmin) * slope) >> 32, exact to a few parts per million for any sane band.
  uint64_t slope = 0;
  bool mark_at_dequeue = false;
};

// Refuses kmin > kmax, negative thresholds and pmax outside [0, 1]; the message names the field.
StatusOr<WredConfig> Compile(const WredParams& params);

enum class WredVerdict : uint8_t { kEnqueue, kMark, kDrop };

// queue_bytes: the queue's instantaneous length. random_u32: a uniform draw on [0, 2^32), e.g.
// the top half of Random::NextU64(); a hit is random_u32 < p * 2^32.
inline WredVerdict WredDecide(const WredConfig& config, int64_t queue_bytes, bool ect,
                              bool lossless, uint32_t random_u32) {
  if (queue_bytes <= config.kmin_bytes) return WredVerdict::kEnqueue;
  if (queue_bytes <= config.kmax_bytes) {
    const auto excess = static_cast<unsigned __int128>(queue_bytes - config.kmin_bytes);
    const auto p_q32 = static_cast<uint64_t>((excess * config.slope) >> 32);
    if (random_u32 >= p_q32) return WredVerdict::kEnqueue;
  }
  if (ect) return WredVerdict::kMark;
  return lossless ? WredVerdict::kEnqueue : WredVerdict::kDrop;
}

}  // namespace fe::cong
