// Classification: the IP DSCP of an arriving packet picks one of eight priorities, and the
// priority is everything downstream of it: the ingress priority group (PFC accounting), the egress
// queue, and the PFC class-enable bit. Defaults follow common RoCE deployments: RoCE data on
// DSCP 26 -> priority 3 (the lossless class), CNPs on DSCP 48 -> priority 6 (their own queue, so
// congestion notifications never wait behind the data they throttle), all else -> priority 0.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/status.h"

namespace fe::cong {

// 802.1p priorities, hence egress queues and PFC classes, per port.
inline constexpr int kNumPriorities = 8;
inline constexpr int kNumDscp = 64;

struct DscpMapParams {
  struct Entry {
    int dscp = 0;      // 0..63
    int priority = 0;  // 0..7
  };
  // Priority of every DSCP not listed in entries.
  int default_priority = 0;
  // Explicit mappings; a user list replaces these defaults entirely.
  std::vector<Entry> entries = {{.dscp = 26, .priority = 3}, {.dscp = 48, .priority = 6}};
};

struct DscpMapConfig {
  std::array<uint8_t, kNumDscp> priority_of_dscp{};
};

// Refuses out-of-range values and a DSCP listed twice; the message names the field.
StatusOr<DscpMapConfig> Compile(const DscpMapParams& params);

// dscp is the 6-bit field (the IPv4 TOS byte >> 2).
inline uint8_t PriorityOf(const DscpMapConfig& config, uint8_t dscp) {
  return config.priority_of_dscp[dscp & (kNumDscp - 1)];
}

}  // namespace fe::cong
