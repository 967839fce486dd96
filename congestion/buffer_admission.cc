#include "congestion/buffer_admission.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace fe::cong {
namespace {

// Bounds that keep alpha_q16 x free bytes inside 64 bits.
constexpr int64_t kMaxTotalBytes = int64_t{1} << 40;
constexpr double kMinAlpha = 1.0 / 65536;
constexpr double kMaxAlpha = 64.0;

std::string Num(int64_t v) { return std::to_string(v); }

// Bytes of a usage of `bytes` that lie beyond its reserved minimum.
int64_t SharedPart(int64_t bytes, int64_t reserved_bytes) {
  return std::max<int64_t>(0, bytes - reserved_bytes);
}

int64_t DynamicLimit(uint32_t alpha_q16, int64_t free_bytes) {
  return static_cast<int64_t>((static_cast<uint64_t>(free_bytes) * alpha_q16) >> 16);
}

int64_t XoffThreshold(const BufferConfig::Priority& p, int64_t free_bytes) {
  return p.pfc.dynamic_xoff ? DynamicLimit(p.alpha_q16, free_bytes) : p.pfc.xoff_bytes;
}

int64_t XonThreshold(const BufferConfig::Priority& p, int64_t xoff_bytes) {
  return p.pfc.static_xon ? p.pfc.xon_bytes
                          : std::max<int64_t>(0, xoff_bytes - p.pfc.xon_offset_bytes);
}

}  // namespace

StatusOr<BufferConfig> Compile(const BufferParams& params) {
  if (params.total_bytes <= 0 || params.total_bytes > kMaxTotalBytes) {
    return Status::Error("total_bytes (" + Num(params.total_bytes) + ") outside [1, 2^40]");
  }
  if (params.num_ports <= 0 || params.num_ports > 65535) {
    return Status::Error("num_ports (" + Num(params.num_ports) + ") outside [1, 65535]");
  }
  BufferConfig config;
  config.num_ports = params.num_ports;
  config.total_bytes = params.total_bytes;
  int64_t reserved_per_port = 0;
  int num_lossless = 0;
  for (int i = 0; i < kNumPriorities; ++i) {
    const PriorityBufferParams& p = params.priorities[i];
    const std::string field = "priorities[" + Num(i) + "].";
    if (!(p.alpha >= kMinAlpha && p.alpha <= kMaxAlpha)) {
      return Status::Error(field + "alpha (" + std::to_string(p.alpha) + ") outside [1/65536, 64]");
    }
    if (p.reserved_bytes < 0 || p.reserved_bytes > params.total_bytes) {
      return Status::Error(field + "reserved_bytes (" + Num(p.reserved_bytes) +
                           ") outside [0, total_bytes (" + Num(params.total_bytes) + ")]");
    }
    BufferConfig::Priority& c = config.priorities[i];
    c.lossless = p.lossless;
    c.alpha_q16 = static_cast<uint32_t>(std::lround(p.alpha * 65536));
    c.reserved_bytes = p.reserved_bytes;
    if (p.lossless) {
      StatusOr<PfcThresholdConfig> pfc = Compile(p.pfc);
      if (!pfc.ok()) return Status::Error(field + "pfc." + pfc.status().message());
      c.pfc = pfc.value();
      ++num_lossless;
    }
    reserved_per_port += p.reserved_bytes;
  }
  int64_t headroom_per_pg_set = 0;  // one lossless PG on every port
  if (num_lossless > 0) {
    if (params.headroom_bytes.size() != static_cast<size_t>(params.num_ports)) {
      return Status::Error("headroom_bytes has " + Num(params.headroom_bytes.size()) +
                           " entries; num_ports (" + Num(params.num_ports) +
                           ") needed for the lossless priorities");
    }
    for (size_t port = 0; port < params.headroom_bytes.size(); ++port) {
      const int64_t h = params.headroom_bytes[port];
      if (h < 0 || h > params.total_bytes) {
        return Status::Error("headroom_bytes[" + Num(port) + "] (" + Num(h) +
                             ") outside [0, total_bytes (" + Num(params.total_bytes) + ")]");
      }
      headroom_per_pg_set += h;
    }
    config.headroom_bytes = params.headroom_bytes;
  }
  const int64_t reserved = reserved_per_port * params.num_ports;
  const int64_t headroom = headroom_per_pg_set * num_lossless;
  if (params.total_bytes < reserved + headroom) {
    return Status::Error(
        "total_bytes (" + Num(params.total_bytes) + ") < reserved (" + Num(reserved) +
        " = num_ports " + Num(params.num_ports) + " x sum of priorities[].reserved_bytes " +
        Num(reserved_per_port) + ") + headroom (" + Num(headroom) + " = " + Num(num_lossless) +
        " lossless priorities x sum of headroom_bytes " + Num(headroom_per_pg_set) + ")");
  }
  config.shared_bytes = params.total_bytes - reserved - headroom;
  return config;
}

BufferAdmission::BufferAdmission(BufferConfig config)
    : pgs_(static_cast<size_t>(config.num_ports) * kNumPriorities),
      queues_(static_cast<size_t>(config.num_ports) * kNumPriorities),
      config_(std::move(config)) {}

AdmitVerdict BufferAdmission::Admit(uint16_t in_port, uint16_t out_port, uint8_t prio,
                                    uint32_t bytes) {
  const BufferConfig::Priority& p = config_.priorities[prio];
  PgUsage& pg = pgs_[Index(in_port, prio)];
  QueueUsage& q = queues_[Index(out_port, prio)];
  const int64_t free_bytes = FreeSharedBytes();
  AdmitVerdict verdict = AdmitVerdict::kAdmit;
  if (p.lossless) {
    const int64_t shared_after = SharedPart(pg.bytes + bytes, p.reserved_bytes);
    const int64_t grow = shared_after - SharedPart(pg.bytes, p.reserved_bytes);
    if (grow == 0 || (grow <= free_bytes && shared_after <= XoffThreshold(p, free_bytes))) {
      pg.bytes += bytes;
      shared_used_bytes_ += grow;
    } else if (pg.headroom_bytes + bytes <= config_.headroom_bytes[in_port]) {
      pg.headroom_bytes += bytes;
      verdict = AdmitVerdict::kAdmitToHeadroom;
    } else {
      return AdmitVerdict::kDropHeadroomOverflow;
    }
  } else {
    const int64_t shared_after = SharedPart(q.bytes + bytes, p.reserved_bytes);
    const int64_t grow = shared_after - SharedPart(q.bytes, p.reserved_bytes);
    if (grow > 0 && (grow > free_bytes || shared_after > DynamicLimit(p.alpha_q16, free_bytes))) {
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

void BufferAdmission::Release(uint16_t in_port, uint16_t out_port, uint8_t prio, uint32_t bytes) {
  const BufferConfig::Priority& p = config_.priorities[prio];
  PgUsage& pg = pgs_[Index(in_port, prio)];
  QueueUsage& q = queues_[Index(out_port, prio)];
  if (p.lossless) {
    const int64_t from_headroom = std::min<int64_t>(pg.headroom_bytes, bytes);
    pg.headroom_bytes -= from_headroom;
    const int64_t shared_before = SharedPart(pg.bytes, p.reserved_bytes);
    pg.bytes -= bytes - from_headroom;
    shared_used_bytes_ -= shared_before - SharedPart(pg.bytes, p.reserved_bytes);
  } else {
    const int64_t shared_before = SharedPart(q.bytes, p.reserved_bytes);
    shared_used_bytes_ -= shared_before - SharedPart(q.bytes - bytes, p.reserved_bytes);
    pg.bytes -= bytes;
  }
  q.bytes -= bytes;
  used_bytes_ -= bytes;
  assert(pg.bytes >= 0 && q.bytes >= 0 && shared_used_bytes_ >= 0);
}

PfcAction BufferAdmission::PfcCheck(uint16_t in_port, uint8_t prio) {
  const BufferConfig::Priority& p = config_.priorities[prio];
  if (!p.lossless) return PfcAction::kNone;
  PgUsage& pg = pgs_[Index(in_port, prio)];
  const int64_t xoff_bytes = XoffThreshold(p, FreeSharedBytes());
  const int64_t shared = SharedPart(pg.bytes, p.reserved_bytes);
  if (!pg.xoff) {
    // An empty PG is not paused merely because a dynamic threshold fell to zero: its next
    // packet past the reserve lands in headroom and raises XOFF then.
    if (pg.headroom_bytes > 0 || (shared > 0 && shared >= xoff_bytes)) {
      pg.xoff = true;
      return PfcAction::kSendXoff;
    }
  } else if (pg.headroom_bytes == 0 && shared <= XonThreshold(p, xoff_bytes)) {
    pg.xoff = false;
    return PfcAction::kSendXon;
  }
  return PfcAction::kNone;
}

int64_t BufferAdmission::XoffThresholdBytes(uint8_t prio) const {
  return XoffThreshold(config_.priorities[prio], FreeSharedBytes());
}

int64_t BufferAdmission::QueueLimitBytes(uint8_t prio) const {
  return DynamicLimit(config_.priorities[prio].alpha_q16, FreeSharedBytes());
}

}  // namespace fe::cong
