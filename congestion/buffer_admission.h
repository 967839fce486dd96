// The shared-buffer MMU of a switch (Broadcom-style, as modelled by the DCQCN/HPCC ns-3 switches
// and configured by SONiC): one buffer of total_bytes split into
//   - reserved space: a guaranteed minimum per (ingress port, PG) for lossless priorities and
//     per (egress port, queue) for lossy ones;
//   - PFC headroom: per (ingress port, lossless PG), holding what arrives after XOFF;
//   - a shared pool: the rest, drawn on by dynamic thresholds.
// A lossless priority is accounted at ingress: its PG fills its reserve, then the shared pool up
// to the XOFF threshold (static, or alpha x free shared bytes), then its headroom; it is never
// dropped while headroom remains. A lossy priority is accounted at egress: its queue fills its
// reserve, then the shared pool up to alpha x free shared bytes, and is dropped beyond. Each
// side also keeps the other side's byte counts, for reporting.
//
// An ingress port on a credit-based link (congestion/credit_flow.h) has instead a buffer of its
// own per priority, set aside from the total: its sender never sends beyond it, so its packets are
// always admitted, never raise PFC, and do not draw on the shared pool. A packet that arrives
// beyond that buffer (the sender overdrew its credit) is still admitted, and counted.
//
// Pure bookkeeping: the switch calls Admit on arrival, Release when the packet leaves the queue
// and PfcCheck after either for that (ingress port, priority), and sends the frames it is told.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "congestion/dscp_map.h"
#include "congestion/pfc_config.h"
#include "core/status.h"

namespace fe::cong {

struct PriorityBufferParams {
  bool lossless = false;
  // Dynamic threshold: the queue (lossy) or the PG with a dynamic XOFF (lossless) may hold up to
  // alpha x (free shared bytes) of the pool. In [1/65536, 64]; Broadcom's dynamic_th n is 2^n.
  double alpha = 1.0;
  // Guaranteed bytes, per (egress port, queue) for a lossy priority and per (ingress port, PG)
  // for a lossless one.
  int64_t reserved_bytes = 0;
  PfcThresholdParams pfc = {};  // lossless priorities only
};

// Priority 3 (RoCE, see dscp_map.h) lossless, the rest lossy.
inline std::array<PriorityBufferParams, kNumPriorities> DefaultPriorityBufferParams() {
  std::array<PriorityBufferParams, kNumPriorities> priorities{};
  priorities[3].lossless = true;
  return priorities;
}

struct BufferParams {
  int64_t total_bytes = 16 * 1024 * 1024;
  int num_ports = 0;
  // Bit i set: packets may arrive with priority i (a switch's DSCP map targets). Only these get
  // usage entries of their own; a fabric's traffic uses two or three of the eight priorities.
  uint8_t priorities_in_use = 0xFF;
  std::array<PriorityBufferParams, kNumPriorities> priorities = DefaultPriorityBufferParams();
  // Headroom of each lossless PG of an ingress port, by port: ComputeHeadroomBytes() of that
  // port's link. Needs num_ports entries when any priority is lossless.
  std::vector<int64_t> headroom_bytes;
  // By port: the buffer a credit-based ingress port sets aside for each priority in use; 0 (or
  // no entry): the port is not credit-based.
  std::vector<int64_t> credit_bytes;
};

struct BufferConfig {
  struct Priority {
    bool lossless = false;
    uint32_t alpha_q16 = 0;  // alpha in units of 2^-16
    int64_t reserved_bytes = 0;
    PfcThresholdConfig pfc;
  };
  int num_ports = 0;
  // Where each priority's entries start in the usage arrays (its ports side by side). Priorities
  // not in use share one row of entries that no packet touches, which read as zero.
  std::array<uint32_t, kNumPriorities> first_entry{};
  uint32_t num_entries = 0;
  uint8_t priorities_in_use = 0;
  int64_t total_bytes = 0;
  int64_t shared_bytes = 0;  // total - all reserves - all headrooms
  std::array<Priority, kNumPriorities> priorities;
  std::vector<int64_t> headroom_bytes;  // by ingress port
  std::vector<int64_t> credit_bytes;    // by ingress port, num_ports entries; 0: not credit-based
};

// Refuses, naming the fields: out-of-range values, pfc thresholds that contradict, and a buffer
// smaller than its reserves plus headrooms.
StatusOr<BufferConfig> Compile(const BufferParams& params);

namespace buffer_internal {

// Bytes of a usage of `bytes` that lie beyond its reserved minimum.
inline int64_t SharedPart(int64_t bytes, int64_t reserved_bytes) {
  return std::max<int64_t>(0, bytes - reserved_bytes);
}

inline int64_t DynamicLimit(uint32_t alpha_q16, int64_t free_bytes) {
  return static_cast<int64_t>((static_cast<uint64_t>(free_bytes) * alpha_q16) >> 16);
}

inline int64_t XoffThreshold(const BufferConfig::Priority& p, int64_t free_bytes) {
  return p.pfc.dynamic_xoff ? DynamicLimit(p.alpha_q16, free_bytes) : p.pfc.xoff_bytes;
}

inline int64_t XonThreshold(const BufferConfig::Priority& p, int64_t xoff_bytes) {
  return p.pfc.static_xon ? p.pfc.xon_bytes
                          : std::max<int64_t>(0, xoff_bytes - p.pfc.xon_offset_bytes);
}

}  // namespace buffer_internal

enum class AdmitVerdict : uint8_t {
  kAdmit,            // into reserved or shared space
  kAdmitToHeadroom,  // lossless PG past its XOFF threshold (or the pool is full)
  kDropQueueLimit,   // lossy queue at its dynamic limit, or the shared pool is full
  // Lossless PG whose headroom is full: only a headroom sized too small for the link lets this
  // happen, so it is counted apart from every other drop.
  kDropHeadroomOverflow,
};

constexpr bool Admitted(AdmitVerdict v) { return v <= AdmitVerdict::kAdmitToHeadroom; }

enum class PfcAction : uint8_t { kNone, kSendXoff, kSendXon };

class BufferAdmission {
 public:
  // Ingress accounting of one (ingress port, priority).
  struct PgUsage {
    int64_t bytes = 0;           // reserved + shared (lossless); all bytes (lossy)
    int64_t headroom_bytes = 0;  // lossless only
    int64_t peak_bytes = 0;      // max of bytes + headroom_bytes
    bool xoff = false;           // XOFF sent and not yet followed by XON
    bool credit = false;         // the port is credit-based: bytes sit in its own buffer
  };
  // Egress accounting of one (egress port, queue).
  struct QueueUsage {
    int64_t bytes = 0;
    int64_t peak_bytes = 0;
  };

  explicit BufferAdmission(BufferConfig config);

  // On arrival of a packet of `bytes` from in_port, to be queued on (out_port, prio). On a drop
  // verdict nothing is charged.
  AdmitVerdict Admit(uint16_t in_port, uint16_t out_port, uint8_t prio, uint32_t bytes);
  // When an admitted packet leaves its queue (same arguments as its Admit). A lossless PG gives
  // back headroom first, then shared, then reserved bytes. True when in_port is credit-based:
  // the bytes' credit goes back to its sender.
  bool Release(uint16_t in_port, uint16_t out_port, uint8_t prio, uint32_t bytes);
  // Edge-triggered XOFF/XON of a lossless PG: kSendXoff when it enters its headroom or reaches
  // its XOFF threshold, kSendXon when its headroom is empty and its shared use is at or below
  // XON; kNone otherwise and always for lossy priorities. Call after Admit and Release.
  PfcAction PfcCheck(uint16_t in_port, uint8_t prio);
  // Prefetches what Admit(in_port, out_port, prio, ...) touches.
  void Prefetch(uint16_t in_port, uint16_t out_port, uint8_t prio) const {
    __builtin_prefetch(this);
    __builtin_prefetch(&config_.priorities[prio]);
    __builtin_prefetch(&pgs_[Index(in_port, prio)]);
    __builtin_prefetch(&queues_[Index(out_port, prio)]);
  }

  const PgUsage& pg(uint16_t in_port, uint8_t prio) const { return pgs_[Index(in_port, prio)]; }
  const QueueUsage& queue(uint16_t out_port, uint8_t prio) const {
    return queues_[Index(out_port, prio)];
  }
  int64_t shared_used_bytes() const { return shared_used_bytes_; }
  int64_t used_bytes() const { return used_bytes_; }  // everything admitted, headroom included
  // Packets a credit-based ingress admitted beyond its buffer: its sender overdrew. Always 0.
  uint64_t credit_overruns() const { return credit_overruns_; }
  // The thresholds as they stand now (they move with the free shared bytes).
  int64_t XoffThresholdBytes(uint8_t prio) const;
  // alpha x free shared bytes: the most shared bytes a lossy queue of prio may hold.
  int64_t QueueLimitBytes(uint8_t prio) const;
  const BufferConfig& config() const { return config_; }

 private:
  // Priority-major: a fabric's traffic uses two or three of the eight priorities, and with the
  // ports of one priority side by side its entries fill whole lines (k = 16: 1.5 KB of a switch's
  // usage is touched instead of 4 KB).
  size_t Index(uint16_t port, uint8_t prio) const {
    assert(port < config_.num_ports && prio < kNumPriorities);
    return config_.first_entry[prio] + port;
  }
  int64_t FreeSharedBytes() const { return config_.shared_bytes - shared_used_bytes_; }

  // What every packet's admission and release touch first, in the object's first 64 bytes; the
  // config's per-priority entry (at most 64 bytes) is the only other state they read.
  std::vector<PgUsage> pgs_;        // by (ingress port, priority)
  std::vector<QueueUsage> queues_;  // by (egress port, priority)
  int64_t shared_used_bytes_ = 0;
  int64_t used_bytes_ = 0;
  uint64_t credit_overruns_ = 0;
  BufferConfig config_;

  // The compiler's check of the layout above (docs/architecture.md, "Hot state first, a cache
  // line per queue"); a member, so that it may name the private members. Never called.
  static void CheckLayout();
};

inline void BufferAdmission::CheckLayout() {
  static_assert(offsetof(BufferAdmission, used_bytes_) + sizeof(used_bytes_) <= 64 &&
                    offsetof(BufferAdmission, pgs_) < offsetof(BufferAdmission, config_),
                "hot fields in the first line: the MMU's usage (the usage arrays and the shared "
                "and total counts) before its configuration");
  static_assert(sizeof(PgUsage) == 32 && sizeof(QueueUsage) == 16,
                "usage entries of 32 and 16 bytes, laid out priority-major, fill whole lines: a "
                "k = 16 switch's two priorities in use take 1.5 KB");
  static_assert(sizeof(BufferConfig::Priority) <= 64,
                "a priority's config, which every admission reads, is at most a line");
}

// Inline: a switch calls these for every packet, and with the pair of calls of a hop (admit
// and check, release and check) in view the compiler finds the usage entry once.
[[gnu::always_inline]] inline AdmitVerdict BufferAdmission::Admit(uint16_t in_port,
                                                                  uint16_t out_port, uint8_t prio,
                                                                  uint32_t bytes) {
  assert((config_.priorities_in_use >> prio) & 1);
  const BufferConfig::Priority& p = config_.priorities[prio];
  PgUsage& pg = pgs_[Index(in_port, prio)];
  QueueUsage& q = queues_[Index(out_port, prio)];
  if (pg.credit) [[unlikely]] {
    // The egress queue's accounting is left alone: its lossy limits share the pool, which
    // these bytes do not draw on.
    if (pg.bytes + bytes > config_.credit_bytes[in_port]) ++credit_overruns_;
    pg.bytes += bytes;
    used_bytes_ += bytes;
    pg.peak_bytes = std::max(pg.peak_bytes, pg.bytes);
    return AdmitVerdict::kAdmit;
  }
  const int64_t free_bytes = FreeSharedBytes();
  AdmitVerdict verdict = AdmitVerdict::kAdmit;
  if (p.lossless) {
    const int64_t shared_after = buffer_internal::SharedPart(pg.bytes + bytes, p.reserved_bytes);
    const int64_t grow = shared_after - buffer_internal::SharedPart(pg.bytes, p.reserved_bytes);
    if (grow == 0 ||
        (grow <= free_bytes && shared_after <= buffer_internal::XoffThreshold(p, free_bytes))) {
      pg.bytes += bytes;
      shared_used_bytes_ += grow;
    } else if (pg.headroom_bytes + bytes <= config_.headroom_bytes[in_port]) {
      pg.headroom_bytes += bytes;
      verdict = AdmitVerdict::kAdmitToHeadroom;
    } else {
      return AdmitVerdict::kDropHeadroomOverflow;
    }
  } else {
    const int64_t shared_after = buffer_internal::SharedPart(q.bytes + bytes, p.reserved_bytes);
    const int64_t grow = shared_after - buffer_internal::SharedPart(q.bytes, p.reserved_bytes);
    if (grow > 0 && (grow > free_bytes ||
                     shared_after > buffer_internal::DynamicLimit(p.alpha_q16, free_bytes))) {
      return AdmitVerdict::kDropQueueLimit;
    }
    shared_used_bytes_ += grow;
    pg.bytes += bytes;
  }
  q.bytes += bytes;
  used_bytes_ += bytes;
  pg.peak_bytes = std::max(pg.peak_bytes, pg.bytes + pg.headroom_bytes);
  q.peak_bytes = std::max(q.peak_bytes, q.bytes);
  return verdict;
}

inline bool BufferAdmission::Release(uint16_t in_port, uint16_t out_port, uint8_t prio,
                                     uint32_t bytes) {
  const BufferConfig::Priority& p = config_.priorities[prio];
  PgUsage& pg = pgs_[Index(in_port, prio)];
  if (pg.credit) [[unlikely]] {
    pg.bytes -= bytes;
    used_bytes_ -= bytes;
    assert(pg.bytes >= 0);
    return true;
  }
  QueueUsage& q = queues_[Index(out_port, prio)];
  if (p.lossless) {
    const int64_t from_headroom = std::min<int64_t>(pg.headroom_bytes, bytes);
    pg.headroom_bytes -= from_headroom;
    const int64_t shared_before = buffer_internal::SharedPart(pg.bytes, p.reserved_bytes);
    pg.bytes -= bytes - from_headroom;
    shared_used_bytes_ -= shared_before - buffer_internal::SharedPart(pg.bytes, p.reserved_bytes);
  } else {
    const int64_t shared_before = buffer_internal::SharedPart(q.bytes, p.reserved_bytes);
    shared_used_bytes_ -=
        shared_before - buffer_internal::SharedPart(q.bytes - bytes, p.reserved_bytes);
    pg.bytes -= bytes;
  }
  q.bytes -= bytes;
  used_bytes_ -= bytes;
  assert(pg.bytes >= 0 && q.bytes >= 0 && shared_used_bytes_ >= 0);
  return false;
}

inline PfcAction BufferAdmission::PfcCheck(uint16_t in_port, uint8_t prio) {
  const BufferConfig::Priority& p = config_.priorities[prio];
  if (!p.lossless) return PfcAction::kNone;
  PgUsage& pg = pgs_[Index(in_port, prio)];
  if (pg.credit) return PfcAction::kNone;  // credits hold its sender back, not pauses
  const int64_t xoff_bytes = buffer_internal::XoffThreshold(p, FreeSharedBytes());
  const int64_t shared = buffer_internal::SharedPart(pg.bytes, p.reserved_bytes);
  if (!pg.xoff) {
    // An empty PG is not paused merely because a dynamic threshold fell to zero: its next
    // packet past the reserve lands in headroom and raises XOFF then.
    if (pg.headroom_bytes > 0 || (shared > 0 && shared >= xoff_bytes)) {
      pg.xoff = true;
      return PfcAction::kSendXoff;
    }
  } else if (pg.headroom_bytes == 0 && shared <= buffer_internal::XonThreshold(p, xoff_bytes)) {
    pg.xoff = false;
    return PfcAction::kSendXon;
  }
  return PfcAction::kNone;
}

}  // namespace fe::cong
