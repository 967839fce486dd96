#include "congestion/buffer_admission.h"

#include <algorithm>
#include <bit>
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
  config.priorities_in_use = params.priorities_in_use;
  const auto ports = static_cast<uint32_t>(params.num_ports);
  uint32_t rows = 0;
  for (int i = 0; i < kNumPriorities; ++i) {
    if ((params.priorities_in_use >> i) & 1) config.first_entry[i] = ports * rows++;
  }
  for (int i = 0; i < kNumPriorities; ++i) {
    if (((params.priorities_in_use >> i) & 1) == 0) config.first_entry[i] = ports * rows;
  }
  config.num_entries = ports * (rows + (params.priorities_in_use != 0xFF ? 1 : 0));
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
  if (params.credit_bytes.size() > static_cast<size_t>(params.num_ports)) {
    return Status::Error("credit_bytes has " + Num(params.credit_bytes.size()) +
                         " entries, more than num_ports (" + Num(params.num_ports) + ")");
  }
  config.credit_bytes.assign(ports, 0);
  int64_t credit_per_priority = 0;  // every credit port's buffer for one priority
  for (size_t port = 0; port < params.credit_bytes.size(); ++port) {
    const int64_t c = params.credit_bytes[port];
    if (c < 0 || c > params.total_bytes) {
      return Status::Error("credit_bytes[" + Num(port) + "] (" + Num(c) +
                           ") outside [0, total_bytes (" + Num(params.total_bytes) + ")]");
    }
    config.credit_bytes[port] = c;
    credit_per_priority += c;
  }
  const int64_t reserved = reserved_per_port * params.num_ports;
  const int64_t headroom = headroom_per_pg_set * num_lossless;
  const int64_t credit = credit_per_priority * std::popcount(unsigned{params.priorities_in_use});
  if (params.total_bytes < reserved + headroom + credit) {
    return Status::Error(
        "total_bytes (" + Num(params.total_bytes) + ") < reserved (" + Num(reserved) +
        " = num_ports " + Num(params.num_ports) + " x sum of priorities[].reserved_bytes " +
        Num(reserved_per_port) + ") + headroom (" + Num(headroom) + " = " + Num(num_lossless) +
        " lossless priorities x sum of headroom_bytes " + Num(headroom_per_pg_set) + ")" +
        (credit > 0
             ? " + credit buffers (" + Num(credit) + " = priorities in use x sum of credit_bytes " +
                   Num(credit_per_priority) + ")"
             : std::string()) +
        ": it needs at least " + Num(reserved + headroom + credit) + " bytes");
  }
  config.shared_bytes = params.total_bytes - reserved - headroom - credit;
  return config;
}

BufferAdmission::BufferAdmission(BufferConfig config)
    : pgs_(config.num_entries), queues_(config.num_entries), config_(std::move(config)) {
  for (size_t port = 0; port < config_.credit_bytes.size(); ++port) {
    if (config_.credit_bytes[port] == 0) continue;
    for (uint8_t prio = 0; prio < kNumPriorities; ++prio) {
      if ((config_.priorities_in_use >> prio) & 1) {
        pgs_[Index(static_cast<uint16_t>(port), prio)].credit = true;
      }
    }
  }
}

int64_t BufferAdmission::XoffThresholdBytes(uint8_t prio) const {
  return buffer_internal::XoffThreshold(config_.priorities[prio], FreeSharedBytes());
}

int64_t BufferAdmission::QueueLimitBytes(uint8_t prio) const {
  return buffer_internal::DynamicLimit(config_.priorities[prio].alpha_q16, FreeSharedBytes());
}

}  // namespace fe::cong
