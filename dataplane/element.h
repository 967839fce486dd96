// The two edges every element has: it receives packets on a local port, and (for NICs) it can be
// asked for the next packet to send when its port falls idle, which is how a NIC sends at line
// rate without an unbounded transmit queue.
#pragma once

#include <rte_mbuf.h>

#include <cstddef>
#include <cstdint>

namespace fe::dp {

inline constexpr size_t kReceiverHotBytes = 256;

class PacketReceiver {
 public:
  virtual ~PacketReceiver() = default;
  // Takes ownership of m: the receiver forwards, consumes or drops it.
  virtual void Receive(uint16_t local_port, rte_mbuf* m) = 0;
  // m will be received on local_port a few events from now and its header lines are in cache:
  // prefetch what Receive will touch. Changes nothing. (Ahead of this call, a port prefetches its
  // receiver's first kReceiverHotBytes: a receiver keeps what Receive reads for every packet
  // there.)
  virtual void PrefetchReceive(uint16_t /*local_port*/, const rte_mbuf* /*m*/) const {}
};

class PacketSource {
 public:
  virtual ~PacketSource() = default;
  // The next packet to transmit now, or nullptr when there is none; the source calls
  // EgressPort::Kick when it has one again.
  virtual rte_mbuf* Pull() = 0;
};

// A queue of an egress port as the per-packet path names it: its priority in the low 3 bits and
// its index among the port's queues (a port has queues only for the priorities its fabric uses,
// in priority order) above them, so that neither costs a look-up.
struct QueueId {
  uint8_t code;
  uint8_t priority() const { return code & 7; }
  uint8_t slot() const { return code >> 3; }
};

// Told when a packet leaves an egress queue for the wire (a switch releases its buffer and may
// send XON). Set only on switch ports, so a NIC's port pays one null test per packet.
class DequeueObserver {
 public:
  virtual ~DequeueObserver() = default;
  // m left queue `queue` of the observer's local port `local_port`; tag is what Enqueue was given.
  virtual void OnDequeue(uint16_t local_port, rte_mbuf* m, uint32_t frame_bytes, QueueId queue,
                         uint16_t tag) = 0;
  // m was flushed from the queue by the PFC watchdog: the observer takes it and drops it.
  virtual void OnFlush(uint16_t local_port, rte_mbuf* m, uint32_t frame_bytes, QueueId queue,
                       uint16_t tag) = 0;
};

}  // namespace fe::dp
