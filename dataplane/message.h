// A message is one RDMA SEND from a source host's NIC to a destination host's NIC, carried by its
// own RC queue pair. MessageState is the flat per-message record both NICs update in place.
#pragma once

#include <cstdint>
#include <vector>

#include "core/units.h"

namespace fe::dp {

struct MessageSpec {
  uint32_t src_host = 0;
  uint32_t dst_host = 0;
  uint64_t size_bytes = 0;
  Time start;
  uint8_t dscp = 26;  // RoCE traffic class by common convention
};

// QP numbers below 0x100 are left free: IBA reserves QP0 and QP1, and real NICs start higher.
inline constexpr uint32_t kFirstQpn = 0x100;
inline constexpr uint32_t kMaxMessages = (1u << 24) - kFirstQpn;
inline constexpr uint32_t QpnOf(uint32_t message) { return kFirstQpn + message; }

struct MessageState {
  MessageSpec spec;
  uint32_t packets_total = 0;
  uint16_t udp_src_port = 0;
  // Sender side.
  uint32_t next_psn = 0;  // next packet to send
  uint32_t acked_packets = 0;
  // Receiver side.
  uint32_t expected_psn = 0;
  uint32_t packets_since_ack = 0;
  uint64_t bytes_delivered = 0;
  Time delivered_at = Time::Infinite();  // last byte at the receiver
  Time completed_at = Time::Infinite();  // last ACK at the sender

  bool delivered() const { return delivered_at != Time::Infinite(); }
  bool completed() const { return completed_at != Time::Infinite(); }
};

using MessageTable = std::vector<MessageState>;

}  // namespace fe::dp
