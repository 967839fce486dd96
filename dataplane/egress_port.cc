#include "dataplane/egress_port.h"

#include "dataplane/packet.h"

namespace fe::dp {

namespace {

// The next frame on a link is received a few hundred events from now: start pulling the lines
// the receiver reads (mbuf header, metadata, packet headers) into cache while other work runs.
// The header address is computed from the pool layout so the prefetch itself does not miss.
void PrefetchForReceive(const rte_mbuf* m) {
  const char* base = reinterpret_cast<const char*>(m);
  __builtin_prefetch(base);
  __builtin_prefetch(base + sizeof(rte_mbuf));
  __builtin_prefetch(base + sizeof(rte_mbuf) + kPacketPrivBytes + RTE_PKTMBUF_HEADROOM);
}

}  // namespace

void EgressPort::Enqueue(rte_mbuf* m, uint8_t queue) {
  Meta(m).enqueue_time = sched_->Now();
  const uint32_t frame_bytes = FrameBytes(m);
  queues_[queue].push(Queued{m, frame_bytes});
  queue_bytes_[queue] += frame_bytes;
  nonempty_mask_ |= static_cast<uint8_t>(1u << queue);
  if (!tx_event_pending_) StartNext();
}

void EgressPort::Kick() {
  if (!tx_event_pending_) StartNext();
}

EgressPort::Queued EgressPort::Dequeue() {
  if (nonempty_mask_ == 0) {
    rte_mbuf* m = source_ != nullptr ? source_->Pull() : nullptr;
    return Queued{m, m != nullptr ? FrameBytes(m) : 0};
  }
  // Strict priority, highest queue first (31 - clz gives the highest set bit).
  const int q = 31 - __builtin_clz(nonempty_mask_);
  const Queued e = queues_[q].pop();
  queue_bytes_[q] -= e.frame_bytes;
  if (queues_[q].empty()) nonempty_mask_ &= static_cast<uint8_t>(~(1u << q));
  return e;
}

void EgressPort::StartNext() {
  const Time now = sched_->Now();
  if (busy_until_ > now) {
    // Still serialising the previous frame: come back when the wire frees.
    tx_event_pending_ = true;
    sched_->At(busy_until_, this, kTxDone);
    return;
  }
  const Queued next = Dequeue();
  if (next.m == nullptr) return;
  Transmit(next.m, next.frame_bytes);
  if (nonempty_mask_ != 0 || source_ != nullptr) {
    tx_event_pending_ = true;
    sched_->At(busy_until_, this, kTxDone);
  }
}

void EgressPort::Transmit(rte_mbuf* m, uint32_t frame_bytes) {
  const Time now = sched_->Now();
  const uint32_t wire_bytes = WireBytesOfFrame(frame_bytes);
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
  if (!wire_.empty()) {
    PrefetchForReceive(wire_.front().m);
    sched_->At(wire_.front().arrival, this, kArrival);
  }
}

uint64_t EgressPort::DrainAll() {
  uint64_t n = 0;
  for (auto& q : queues_) {
    while (!q.empty()) {
      rte_pktmbuf_free(q.pop().m);
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
