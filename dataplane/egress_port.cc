#include "dataplane/egress_port.h"

#include "dataplane/packet.h"

namespace fe::dp {

void EgressPort::Enqueue(rte_mbuf* m, uint8_t queue) {
  Meta(m).enqueue_time = sched_->Now();
  queues_[queue].push(m);
  queue_bytes_[queue] += FrameBytes(m);
  nonempty_mask_ |= static_cast<uint8_t>(1u << queue);
  if (!tx_event_pending_) StartNext();
}

void EgressPort::Kick() {
  if (!tx_event_pending_) StartNext();
}

rte_mbuf* EgressPort::Dequeue() {
  if (nonempty_mask_ == 0) return source_ != nullptr ? source_->Pull() : nullptr;
  // Strict priority, highest queue first (31 - clz gives the highest set bit).
  const int q = 31 - __builtin_clz(nonempty_mask_);
  rte_mbuf* m = queues_[q].pop();
  queue_bytes_[q] -= FrameBytes(m);
  if (queues_[q].empty()) nonempty_mask_ &= static_cast<uint8_t>(~(1u << q));
  return m;
}

void EgressPort::StartNext() {
  const Time now = sched_->Now();
  if (busy_until_ > now) {
    // Still serialising the previous frame: come back when the wire frees.
    tx_event_pending_ = true;
    sched_->At(busy_until_, this, kTxDone);
    return;
  }
  rte_mbuf* m = Dequeue();
  if (m == nullptr) return;
  Transmit(m);
  if (nonempty_mask_ != 0 || source_ != nullptr) {
    tx_event_pending_ = true;
    sched_->At(busy_until_, this, kTxDone);
  }
}

void EgressPort::Transmit(rte_mbuf* m) {
  const Time now = sched_->Now();
  const uint32_t wire_bytes = WireBytes(m);
  const Time ser = rate_.SerializationTime(wire_bytes);
  busy_until_ = now + ser;
  ++counters_.tx_packets;
  counters_.tx_wire_bytes += wire_bytes;
  counters_.busy_time += ser;
  const bool was_empty = wire_.empty();
  const Time arrival = busy_until_ + delay_;
  wire_.push(InFlight{m, arrival});
  if (was_empty) sched_->At(arrival, this, kArrival);
}

void EgressPort::OnEvent(uint64_t what) {
  if (what == kTxDone) {
    tx_event_pending_ = false;
    StartNext();
    return;
  }
  // Arrival: every frame due now reaches the peer; then wait for the next one on the wire.
  const Time now = sched_->Now();
  while (!wire_.empty() && wire_.front().arrival <= now) {
    rte_mbuf* m = wire_.pop().m;
    peer_->Receive(peer_port_, m);
  }
  if (!wire_.empty()) sched_->At(wire_.front().arrival, this, kArrival);
}

uint64_t EgressPort::DrainAll() {
  uint64_t n = 0;
  for (auto& q : queues_) {
    while (!q.empty()) {
      rte_pktmbuf_free(q.pop());
      ++n;
    }
  }
  while (!wire_.empty()) {
    rte_pktmbuf_free(wire_.pop().m);
    ++n;
  }
  queue_bytes_ = {};
  nonempty_mask_ = 0;
  return n;
}

}  // namespace fe::dp
