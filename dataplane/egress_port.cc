#include "dataplane/egress_port.h"

#include <bit>
#include <cassert>
#include <cmath>
#include <memory>
#include <utility>

#include "dataplane/int_stamp.h"
#include "dataplane/packet.h"
#include "dataplane/packet_pool.h"
#include "dataplane/pcapng_writer.h"
#include "dataplane/pfc_frame.h"

namespace fe::dp {

EgressPort::EgressPort(Scheduler* sched, Rate rate, Time delay, uint8_t priorities)
    : sched_(sched),
      delay_(delay),
      ps_per_byte_(WholePsPerByteOf(rate)),
      rate_(rate),
      queue_priorities_(priorities) {
  std::uninitialized_default_construct_n(queues(), num_queues());
  // Until told otherwise, the source's priority is RoCE's (3), or the lowest the port has.
  const int roce_slot = QueueSlotOf(priorities, 3);
  source_slot_ = static_cast<uint8_t>(roce_slot < 0 ? 0 : roce_slot);
}

EgressPort::~EgressPort() { std::destroy_n(queues(), num_queues()); }

PortCounters EgressPort::counters() const {
  PortCounters c;
  c.tx_packets = tx_packets_;
  c.tx_wire_bytes = tx_wire_bytes_;
  c.busy_time = ps_per_byte_ != 0
                    ? Time::FromPs(static_cast<int64_t>(tx_wire_bytes_) * ps_per_byte_)
                    : busy_time_;
  if (pfc_ != nullptr) {
    c.pause_frames_received = pfc_->pause_frames_received;
    c.storms_detected = pfc_->storms_detected;
  }
  for (int s = 0; s < num_queues(); ++s) {
    const uint8_t p = QueuePriorityOf(queue_priorities_, s);
    c.max_queue_bytes[p] = queues()[s].max_bytes;
    c.queue_byte_ps[p] = queues()[s].byte_ps;
  }
  return c;
}

void EgressPort::EnqueueControl(rte_mbuf* m) {
  control_.push(Queued{m, FrameBytes(m), 0});
  control_pending_ = true;
  if (!tx_event_pending_) StartNext();
}

void EgressPort::Kick() {
  if (!tx_event_pending_) StartNext();
}

void EgressPort::OnPauseFrame(Time now, uint8_t class_enable,
                              const std::array<uint16_t, kNumQueues>& quanta) {
  if (pfc_ == nullptr) pfc_ = std::make_unique<PfcState>();
  for (int p = 0; p < kNumQueues; ++p) {
    if ((class_enable & (1u << p)) == 0) continue;
    ++pfc_->pause_frames_received[p];
    cong::PauseReceiver& pause = pfc_->pause[p];
    pause.OnPauseFrame(now, quanta[p], rate_);
    if (pause.Paused(now)) sched_->At(pause.paused_until(), this, kPauseExpiry);
    // A priority the port has no queue for has nothing to hold back.
    const int s = QueueSlotOf(queue_priorities_, p);
    if (s < 0) continue;
    if (pause.Paused(now)) {
      paused_mask_ |= static_cast<uint8_t>(1u << s);
    } else {
      paused_mask_ &= static_cast<uint8_t>(~(1u << s));
    }
    UpdateWatchdog(s, now);
  }
  Kick();
}

void EgressPort::UpdateWatchdog(int slot, Time now) {
  // Without a pause ever received the watchdog stays normal: nothing to update.
  if ((watchdog_mask_ & (1u << slot)) == 0 || pfc_ == nullptr) return;
  const uint8_t p = QueuePriorityOf(queue_priorities_, slot);
  cong::PfcWatchdog& watchdog = pfc_->watchdog[p];
  const bool paused = pfc_->pause[p].Paused(now);
  const cong::WatchdogTransition t =
      watchdog.Update(*watchdog_config_, now, paused, (nonempty_mask_ & (1u << slot)) != 0);
  if (t == cong::WatchdogTransition::kStormDetected) {
    stormed_mask_ |= static_cast<uint8_t>(1u << slot);
    ++pfc_->storms_detected[p];
    NoteQueueChange(slot, now);
    QueueState& q = queues()[slot];
    while (!q.fifo.empty()) {
      const Queued e = q.fifo.pop();
      q.bytes -= e.frame_bytes;
      observer_->OnFlush(local_port_, e.m, e.frame_bytes, QueueId{e.queue}, e.tag);
    }
    nonempty_mask_ &= static_cast<uint8_t>(~(1u << slot));
    watchdog.Update(*watchdog_config_, now, paused, false);
  } else if (t == cong::WatchdogTransition::kRestored) {
    stormed_mask_ &= static_cast<uint8_t>(~(1u << slot));
  }
  const Time next = watchdog.NextCheck(*watchdog_config_);
  if (next != Time::Infinite()) sched_->At(next, this, kWatchdog);
}

uint8_t EgressPort::EligibleMask(Time now) {
  if (paused_mask_ != 0) {
    // A paused class means a PFC frame came: pfc_ is there.
    for (unsigned m = paused_mask_; m != 0; m &= m - 1) {
      const int s = std::countr_zero(m);
      if (!pfc_->pause[QueuePriorityOf(queue_priorities_, s)].Paused(now)) {
        paused_mask_ &= static_cast<uint8_t>(~(1u << s));
      }
    }
  }
  // A stormed queue ignores its pauses (the watchdog flushes it and its switch drops its traffic).
  return nonempty_mask_ & static_cast<uint8_t>(~(paused_mask_ & ~stormed_mask_));
}

[[gnu::always_inline]] inline EgressPort::Queued EgressPort::Dequeue() {
  if (control_pending_) {
    const Queued e = control_.pop();
    control_pending_ = !control_.empty();
    return e;
  }
  const Time now = sched_->Now();
  uint8_t eligible = EligibleMask(now);
  if ((faults_ & kCreditFlow) != 0) [[unlikely]] {
    eligible = CreditEligible(eligible, now);
  }
  if (eligible == 0) {
    if (source_ == nullptr || (paused_mask_ & (1u << source_slot_)) != 0) {
      return Queued{nullptr, 0, 0};
    }
    rte_mbuf* m = (faults_ & kCreditFlow) != 0 ? PullWithCredit(now) : source_->Pull();
    return Queued{m, m != nullptr ? FrameBytes(m) : 0, 0};
  }
  int q;
  if (scheduler_config_ == nullptr) {
    q = 31 - __builtin_clz(eligible);  // strict priority: the highest set bit
  } else {
    // Pick reads the head sizes of eligible queues only: the others stay unset.
    std::array<uint32_t, kNumQueues> head_bytes;
    for (unsigned m = eligible; m != 0; m &= m - 1) {
      const int i = __builtin_ctz(m);
      head_bytes[i] = queues()[i].fifo.front().frame_bytes;
    }
    q = scheduler_.Pick(*scheduler_config_, eligible, head_bytes, QueueDeficits{queues()});
  }
  NoteQueueChange(q, now);
  QueueState& queue = queues()[q];
  const Queued e = queue.fifo.pop();
  queue.bytes -= e.frame_bytes;
  if ((faults_ & kCreditFlow) != 0) [[unlikely]] {
    SpendCredit(q, e.frame_bytes, now);
  }
  if (queue.fifo.empty()) {
    nonempty_mask_ &= static_cast<uint8_t>(~(1u << q));
    if ((watchdog_mask_ & (paused_mask_ | stormed_mask_) & (1u << q)) != 0) UpdateWatchdog(q, now);
  }
  if (observer_ != nullptr) {
    observer_->OnDequeue(local_port_, e.m, e.frame_bytes, QueueId{e.queue}, e.tag);
    if (e.collects_int) {
      StampInt(e.m, cong::IntHop{tx_wire_bytes_ + WireBytesOfFrame(e.frame_bytes), now, rate_,
                                 queue.bytes});
    }
  }
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
  // The dequeue observer may queue a control frame on this very port: it must not start a
  // second transmission under this one.
  tx_event_pending_ = true;
  const Queued next = Dequeue();
  tx_event_pending_ = false;
  if (next.m == nullptr) return;
  Transmit(next.m, next.frame_bytes);
  if (nonempty_mask_ != 0 || source_ != nullptr || control_pending_) {
    tx_event_pending_ = true;
    sched_->At(busy_until_, this, kTxDone);
  }
}

void EgressPort::WriteCaptures(Time now, const rte_mbuf* m) {
  if (rare_->capture != nullptr) rare_->capture->Write(rare_->capture_interface, now, m);
  if (rare_->capture_in != nullptr) {
    rare_->capture_in->Write(rare_->capture_in_interface, now + delay_, m,
                             CaptureDirection::kInbound);
  }
}

[[gnu::always_inline]] inline void EgressPort::Transmit(rte_mbuf* m, uint32_t frame_bytes) {
  const Time now = sched_->Now();
  const uint32_t wire_bytes = WireBytesOfFrame(frame_bytes);
  Time ser;
  if (ps_per_byte_ != 0) [[likely]] {
    ser = Time::FromPs(int64_t{wire_bytes} * ps_per_byte_);
  } else {
    ser = rate_.SerializationTime(wire_bytes);
    busy_time_ += ser;
  }
  busy_until_ = now + ser;
  if (capturing_) [[unlikely]]
    WriteCaptures(now, m);
  ++tx_packets_;
  tx_wire_bytes_ += wire_bytes;
  if ((faults_ & kWireFaults) != 0) [[unlikely]] {
    if (WireLoses(m, frame_bytes, wire_bytes)) return;
  }
  const Time arrival = busy_until_ + delay_;
  if (reverse_ != nullptr) {
    // In the reverse port's domain, known here: its object's lines stay out of the sender's way.
    sched_->AtIn(peer_domain_, arrival, reverse_, reinterpret_cast<uint64_t>(m) | kFromReverse);
  } else {
    sched_->AtIn(peer_domain_, arrival, this, reinterpret_cast<uint64_t>(m));
  }
}

void EgressPort::OnEvent(uint64_t what) {
  if (IsArrival(what)) [[likely]] {
    // Tail calls: an arrival costs this frame no stack of its own.
    rte_mbuf* m = FrameOf(what);
    if ((what & kFromReverse) == 0) return peer_->Receive(peer_port_, m);
    if (!IsMacControlFrame(m)) return rx_node_->Receive(rx_port_, m);
    return OnMacControlFrame(m);
  }
  if (what == kTxDone) {
    tx_event_pending_ = false;
    StartNext();
    return;
  }
  if (watchdog_mask_ != 0) UpdateWatchdogs(sched_->Now());
  Kick();
}

void EgressPort::EnableCredit(const CreditPortSetup& setup) {
  Rare().credit = std::make_unique<CreditPort>(this, sched_, setup);
  faults_ |= kCreditFlow;
}

uint8_t EgressPort::CreditEligible(uint8_t eligible, Time now) {
  CreditPort& c = *rare_->credit;
  for (unsigned m = eligible; m != 0; m &= m - 1) {
    const int s = std::countr_zero(m);
    const uint8_t prio = QueuePriorityOf(queue_priorities_, s);
    if (c.CanSend(prio, queues()[s].fifo.front().frame_bytes)) {
      c.NoteUnblocked(prio, now);
    } else {
      c.NoteBlocked(prio, now);
      eligible &= static_cast<uint8_t>(~(1u << s));
    }
  }
  return eligible;
}

rte_mbuf* EgressPort::PullWithCredit(Time now) {
  CreditPort& c = *rare_->credit;
  const uint8_t prio = QueuePriorityOf(queue_priorities_, source_slot_);
  if (!c.CanSend(prio, c.max_source_frame_bytes())) {
    c.NoteBlocked(prio, now);
    return nullptr;
  }
  c.NoteUnblocked(prio, now);
  rte_mbuf* m = source_->Pull();
  if (m != nullptr) SpendCredit(source_slot_, FrameBytes(m), now);
  return m;
}

void EgressPort::SpendCredit(int slot, uint32_t frame_bytes, Time now) {
  rare_->credit->OnSend(QueuePriorityOf(queue_priorities_, slot), frame_bytes, now,
                        rate_.SerializationTime(WireBytesOfFrame(frame_bytes)));
}

void EgressPort::SetLinkDown(bool down) {
  if (down == link_down()) return;
  RareState& f = Rare();
  if (down) {
    faults_ |= kFaultDown;
    // Swapping the receivers keeps the arrival path free of a test: frames already on the wire
    // towards this end reach the dead end instead.
    f.dead_end.port_ = this;
    f.live_rx_node = rx_node_;
    f.live_peer = peer_;
    if (rx_node_ != nullptr) rx_node_ = &f.dead_end;
    if (peer_ != nullptr && reverse_ == nullptr) peer_ = &f.dead_end;
  } else {
    faults_ &= static_cast<uint8_t>(~kFaultDown);
    rx_node_ = f.live_rx_node;
    peer_ = f.live_peer;
  }
}

void EgressPort::SetBitErrorRate(double ber, uint64_t seed) {
  if (ber <= 0 && rare_ == nullptr) return;
  RareState& f = Rare();
  f.log_keep_per_bit = ber > 0 ? std::log1p(-ber) : 0;
  f.bit_errors = Random(seed);
  if (ber > 0) {
    faults_ |= kFaultLossy;
  } else {
    faults_ &= static_cast<uint8_t>(~kFaultLossy);
  }
}

void EgressPort::SetLossObserver(LinkLossObserver* observer, uint32_t link) {
  if (observer == nullptr && rare_ == nullptr) return;
  Rare().loss_observer = observer;
  rare_->link = link;
}

void EgressPort::Lose(rte_mbuf* m, DropReason reason) {
  if (rare_->loss_observer != nullptr) rare_->loss_observer->OnLinkLoss(rare_->link, reason, m);
  FreePacket(m);
}

bool EgressPort::WireLoses(rte_mbuf* m, uint32_t frame_bytes, uint32_t wire_bytes) {
  LinkLosses& losses = rare_->losses;
  if ((faults_ & kFaultDown) != 0) {
    ++losses.sent_while_down;
    losses.link_down_bytes += frame_bytes;
    Lose(m, DropReason::kLinkDown);
    return true;
  }
  // P(some bit flips) = 1 - (1 - ber)^bits, computed without cancellation for tiny rates.
  const double p_lost = -std::expm1(8.0 * wire_bytes * rare_->log_keep_per_bit);
  if (rare_->bit_errors.NextUnitDouble() >= p_lost) return false;
  ++losses.bit_errors;
  losses.bit_error_bytes += frame_bytes;
  Lose(m, DropReason::kBitError);
  return true;
}

void EgressPort::LoseArrival(rte_mbuf* m) {
  ++rare_->losses.in_flight;
  rare_->losses.link_down_bytes += FrameBytes(m);
  Lose(m, DropReason::kLinkDown);
}

void EgressPort::OnMacControlFrame(rte_mbuf* m) {
  if (link_down()) return LoseArrival(m);
  // Other MAC-control opcodes (802.3x PAUSE) are not emulated and end here too.
  if (const std::optional<PfcFrame> f = ParsePfcFrame(m)) {
    OnPauseFrame(sched_->Now(), f->class_enable, f->quanta);
  }
  FreePacket(m);
}

void EgressPort::Discard(uint64_t what) {
  if (IsArrival(what)) FreePacket(FrameOf(what));
}

void EgressPort::Prefetch(uint64_t what, int stage) const {
  if (IsArrival(what)) {
    const rte_mbuf* m = FrameOf(what);
    const bool duplex = (what & kFromReverse) != 0;
    const PacketReceiver* receiver = duplex ? rx_node_ : peer_;
    if (stage != kWarmDeep) {  // the frame's lines and the receiver's: fixed addresses
      PrefetchForReceive(m);
      for (size_t line = 0; line < kReceiverHotBytes; line += 64) {
        __builtin_prefetch(reinterpret_cast<const char*>(receiver) + line);
      }
    } else {
      receiver->PrefetchReceive(duplex ? rx_port_ : peer_port_, m);
    }
  } else if (what == kTxDone) {
    // The queues that may send and their head entries (the scheduler warms the port's own two
    // lines). The queues' lines were touched when their packets came in, by this node: read
    // here, they are rarely cold. Not at kWarmFixed: the mask and heads change as the port runs.
    if (stage != kWarmNear) return;
    for (unsigned q = nonempty_mask_; q != 0; q &= q - 1) {
      __builtin_prefetch(&queues()[__builtin_ctz(q)].fifo.front());
    }
  }
}

uint64_t EgressPort::DrainAll() {
  uint64_t n = 0;
  control_pending_ = false;
  while (!control_.empty()) {
    FreePacket(control_.pop().m);
    ++n;
  }
  for (int s = 0; s < num_queues(); ++s) {
    QueueState& q = queues()[s];
    while (!q.fifo.empty()) {
      FreePacket(q.fifo.pop().m);
      ++n;
    }
    q.bytes = 0;
  }
  nonempty_mask_ = 0;
  return n;
}

}  // namespace fe::dp
