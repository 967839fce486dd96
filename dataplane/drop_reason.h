// Every packet leaves explicitly: to an output, or dropped with one of these reasons, each counted.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>

namespace fe::dp {

enum class DropReason : uint8_t {
  kRunt,
  kNotIpv4,
  kBadIpv4Header,
  kTruncatedL4,
  kUnknownDestination,  // destination address outside the fabric network or host range
  kNotRoce,             // a NIC got a frame that is not RoCEv2
  kUnknownQp,           // BTH destination QP that no message uses
  kQueueLimit,          // lossy queue at its dynamic threshold, or the shared buffer full
  kHeadroomOverflow,    // lossless PG with its PFC headroom full: the headroom is too small
  kWredDrop,            // RED drop of a non-ECT packet on a lossy queue
  kPfcWatchdog,         // lossless traffic of a queue the PFC watchdog declared stormed
  kTtlExpired,          // IPv4 TTL <= 1 at a switch that decrements it (RFC 1812 5.3.1)
  kLinkDown,            // sent into a dead link, or on one when it died
  kBitError,            // corrupted on the wire (the link class's bit-error rate): FCS fails
  // A host of the fabric that this switch has no live path to: the routes after a failure.
  kNoRoute,
  kCount,
};

inline constexpr const char* DropReasonName(DropReason r) {
  switch (r) {
    case DropReason::kRunt:
      return "runt";
    case DropReason::kNotIpv4:
      return "not_ipv4";
    case DropReason::kBadIpv4Header:
      return "bad_ipv4_header";
    case DropReason::kTruncatedL4:
      return "truncated_l4";
    case DropReason::kUnknownDestination:
      return "unknown_destination";
    case DropReason::kNotRoce:
      return "not_roce";
    case DropReason::kUnknownQp:
      return "unknown_qp";
    case DropReason::kQueueLimit:
      return "queue_limit";
    case DropReason::kHeadroomOverflow:
      return "headroom_overflow";
    case DropReason::kWredDrop:
      return "wred_drop";
    case DropReason::kPfcWatchdog:
      return "pfc_watchdog";
    case DropReason::kTtlExpired:
      return "ttl_expired";
    case DropReason::kLinkDown:
      return "link_down";
    case DropReason::kBitError:
      return "bit_error";
    case DropReason::kNoRoute:
      return "no_route";
    case DropReason::kCount:
      break;
  }
  return "?";
}

struct DropCounters {
  std::array<uint64_t, static_cast<size_t>(DropReason::kCount)> packets{};
  std::array<uint64_t, static_cast<size_t>(DropReason::kCount)> bytes{};
  void Count(DropReason r, uint32_t frame_bytes) {
    ++packets[static_cast<size_t>(r)];
    bytes[static_cast<size_t>(r)] += frame_bytes;
  }
  void Add(const DropCounters& o) {
    for (size_t i = 0; i < packets.size(); ++i) {
      packets[i] += o.packets[i];
      bytes[i] += o.bytes[i];
    }
  }
  uint64_t total_packets() const {
    uint64_t t = 0;
    for (uint64_t p : packets) t += p;
    return t;
  }
};

// The reasons an egress queue drops for; a switch's other drops belong to no queue, and a large
// fabric has millions of queues: each counts these alone.
inline constexpr std::array<DropReason, 4> kQueueDropReasons = {
    DropReason::kQueueLimit, DropReason::kHeadroomOverflow, DropReason::kWredDrop,
    DropReason::kPfcWatchdog};

struct QueueDropCounters {
  std::array<uint64_t, kQueueDropReasons.size()> packets{};
  std::array<uint64_t, kQueueDropReasons.size()> bytes{};
  // r must be one of kQueueDropReasons.
  void Count(DropReason r, uint32_t frame_bytes) {
    size_t i = 0;
    while (kQueueDropReasons[i] != r) ++i;
    assert(i < kQueueDropReasons.size());
    ++packets[i];
    bytes[i] += frame_bytes;
  }
  // The same counts under every reason.
  DropCounters All() const {
    DropCounters all;
    for (size_t i = 0; i < kQueueDropReasons.size(); ++i) {
      all.packets[static_cast<size_t>(kQueueDropReasons[i])] = packets[i];
      all.bytes[static_cast<size_t>(kQueueDropReasons[i])] = bytes[i];
    }
    return all;
  }
};

}  // namespace fe::dp
