// One direction of one link: the egress queues of a port, the serialiser that puts frames on the
// wire at the link rate, and the propagation delay to the peer's receiver. Frames arrive at the
// peer after serialisation + propagation (store and forward: a frame is usable once its last bit
// is in).
#pragma once

#include <rte_mbuf.h>

#include <array>
#include <cstdint>

#include "core/fifo.h"
#include "core/scheduler.h"
#include "core/units.h"
#include "dataplane/element.h"

namespace fe::dp {

inline constexpr int kNumQueues = 8;

struct PortCounters {
  uint64_t tx_packets = 0;
  uint64_t tx_wire_bytes = 0;  // frame + preamble + inter-frame gap
  Time busy_time;              // time spent serialising
};

class EgressPort final : public EventHandler {
 public:
  EgressPort(Scheduler* sched, Rate rate, Time delay) : sched_(sched), rate_(rate), delay_(delay) {}
  EgressPort(EgressPort&&) noexcept = default;

  void ConnectPeer(PacketReceiver* peer, uint16_t peer_port) {
    peer_ = peer;
    peer_port_ = peer_port;
  }
  void SetSource(PacketSource* source) { source_ = source; }

  // Queues m on `queue` and starts transmission if the wire is free.
  void Enqueue(rte_mbuf* m, uint8_t queue);
  // Asks the source for packets if the wire is free (a NIC calls this when it has data again).
  void Kick();

  Rate rate() const { return rate_; }
  Time delay() const { return delay_; }
  uint32_t queue_bytes(int q) const { return queue_bytes_[q]; }
  uint32_t queue_packets(int q) const { return static_cast<uint32_t>(queues_[q].size()); }
  uint64_t packets_in_flight() const { return wire_.size(); }
  const PortCounters& counters() const { return counters_; }

  // Frees every packet still queued or on the wire (teardown); returns how many.
  uint64_t DrainAll();

  void OnEvent(uint64_t what) override;

 private:
  enum Event : uint64_t { kTxDone = 0, kArrival = 1 };
  struct InFlight {
    rte_mbuf* m;
    Time arrival;
  };
  // A queued packet with its frame length, so serving a queue never touches the (cold) mbuf.
  struct Queued {
    rte_mbuf* m;
    uint32_t frame_bytes;
  };

  void StartNext();
  void Transmit(rte_mbuf* m, uint32_t frame_bytes);
  // The next packet to send and its frame length; m is nullptr when there is none.
  Queued Dequeue();

  Scheduler* sched_;
  Rate rate_;
  Time delay_;
  PacketReceiver* peer_ = nullptr;
  uint16_t peer_port_ = 0;
  PacketSource* source_ = nullptr;

  Time busy_until_;
  bool tx_event_pending_ = false;
  uint8_t nonempty_mask_ = 0;
  std::array<Fifo<Queued>, kNumQueues> queues_;
  std::array<uint32_t, kNumQueues> queue_bytes_{};
  Fifo<InFlight> wire_;
  PortCounters counters_;
};

}  // namespace fe::dp
