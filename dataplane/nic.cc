#include "dataplane/nic.h"
#include "dataplane/packet_pool.h"

#include <algorithm>
#include <functional>
#include <string>

#include "dataplane/int_stamp.h"

namespace fe::dp {

void NicCounts::Add(const NicCounts& o) {
  data_packets_sent += o.data_packets_sent;
  data_packets_received += o.data_packets_received;
  payload_bytes_sent += o.payload_bytes_sent;
  payload_bytes_received += o.payload_bytes_received;
  retransmitted_packets += o.retransmitted_packets;
  retransmitted_bytes += o.retransmitted_bytes;
  retransmit_timeouts += o.retransmit_timeouts;
  fast_retransmits += o.fast_retransmits;
  retry_exceeded += o.retry_exceeded;
  acks_sent += o.acks_sent;
  acks_received += o.acks_received;
  naks_sent += o.naks_sent;
  naks_received += o.naks_received;
  cnps_sent += o.cnps_sent;
  cnps_received += o.cnps_received;
  ce_marked_received += o.ce_marked_received;
  out_of_sequence += o.out_of_sequence;
  reordered_packets += o.reordered_packets;
  duplicates += o.duplicates;
  alloc_failures += o.alloc_failures;
}

namespace {

// Event argument: timer kind (2 bits) | generation (38 bits) | message id (24 bits).
constexpr int kIdBits = 24;
constexpr int kGenerationBits = 38;
constexpr uint64_t kIdMask = (uint64_t{1} << kIdBits) - 1;
constexpr uint64_t kGenerationMask = (uint64_t{1} << kGenerationBits) - 1;

}  // namespace

StatusOr<NicConfig> CompileNicParams(const NicParams& params, Rate port_rate) {
  if (params.mtu_payload_bytes == 0) return Status::Error("nic.mtu_payload_bytes: must be > 0");
  if (params.ack_every_packets == 0) return Status::Error("nic.ack_every_packets: must be > 0");
  if (params.retransmit_timeout <= Time::Zero()) {
    return Status::Error("nic.retransmit_timeout: must be > 0");
  }
  if (params.retry_count > kMaxRetryCount) {
    return Status::Error("nic.retry_count: at most " + std::to_string(kMaxRetryCount));
  }
  if (params.out_of_order && (params.reorder_window_packets == 0 ||
                              params.reorder_window_packets % kSackBlockPackets != 0)) {
    return Status::Error("nic.reorder_window_packets: must be a positive multiple of " +
                         std::to_string(kSackBlockPackets));
  }
  if (params.entropy.values == 0 || params.entropy.values > kMaxEntropyValues) {
    return Status::Error("nic.entropy.values: must be 1 to " + std::to_string(kMaxEntropyValues));
  }
  if (params.entropy.packets_per_value == 0) {
    return Status::Error("nic.entropy.packets_per_value: must be > 0");
  }
  NicConfig c;
  c.out_of_order = params.out_of_order;
  if (params.out_of_order) c.send_window_packets = params.reorder_window_packets;
  c.sack_resend_threshold = params.sack_resend_threshold;
  c.entropy = params.entropy;
  c.mtu_payload_bytes = params.mtu_payload_bytes;
  c.ack_every_packets = params.ack_every_packets;
  c.retransmit_timeout = params.retransmit_timeout;
  c.retry_count = params.retry_count;
  StatusOr<cong::CnpPacerConfig> pacer = cong::Compile(params.cnp_pacer);
  if (!pacer.ok()) return Status::Error("nic." + pacer.status().message());
  c.cnp_pacer = *pacer;
  c.cc = params.cc;
  if (params.cc == CongestionControl::kDcqcn) {
    cong::DcqcnParams d = params.dcqcn;
    d.line_rate = port_rate;
    StatusOr<cong::DcqcnConfig> dcqcn = cong::Compile(d);
    if (!dcqcn.ok()) return Status::Error("nic." + dcqcn.status().message());
    c.dcqcn = *dcqcn;
  }
  if (params.cc == CongestionControl::kHpcc) {
    c.hpcc = params.hpcc;
    c.hpcc.line_rate = port_rate;
    // The base RTT comes with each message; a stand-in checks the other fields now.
    cong::HpccParams h = c.hpcc;
    h.base_rtt = Time::FromUs(10);
    StatusOr<cong::HpccConfig> hpcc = cong::Compile(h);
    if (!hpcc.ok()) return Status::Error("nic." + hpcc.status().message());
  }
  return c;
}

StatusOr<cong::HpccConfig> CompileHpccQp(const NicConfig& config, Time base_rtt) {
  cong::HpccParams h = config.hpcc;
  h.base_rtt = base_rtt;
  StatusOr<cong::HpccConfig> c = cong::Compile(h);
  if (!c.ok()) return Status::Error("nic." + c.status().message());
  return c;
}

Nic::Nic(uint32_t host, Scheduler* sched, EgressPort* port, rte_mempool* pool,
         MessageTable* messages, const NicConfig& config, HpccTable* hpcc)
    : host_(host),
      sched_(sched),
      port_(port),
      pool_(pool),
      messages_(messages),
      config_(config),
      hpcc_(hpcc),
      full_packet_wire_bytes_(WireBytesOfFrame(RoceFrameBytes(config.mtu_payload_bytes))),
      paced_(config.cc != CongestionControl::kNone) {
  config_.ack_queue = port->QueueOf(kAckQueue);
  config_.cnp_queue = port->QueueOf(kCnpQueue);
  if (config_.out_of_order) {
    ooo_receiver_ = std::make_unique<OooReceiver>(config_.send_window_packets);
    selective_ = std::make_unique<SelectiveSender>(config_.send_window_packets,
                                                   config_.sack_resend_threshold);
  }
}

uint64_t Nic::EventArg(Timer t, uint64_t generation, uint32_t id) {
  return (static_cast<uint64_t>(t) << (kIdBits + kGenerationBits)) |
         ((generation & kGenerationMask) << kIdBits) | id;
}

void Nic::StartAt(uint32_t id, Time at) { sched_->At(at, this, EventArg(Timer::kStart, 0, id)); }

void Nic::OnEvent(uint64_t arg) {
  const auto id = static_cast<uint32_t>(arg & kIdMask);
  const uint64_t generation = (arg >> kIdBits) & kGenerationMask;
  switch (static_cast<Timer>(arg >> (kIdBits + kGenerationBits))) {
    case Timer::kStart: {
      SenderState& msg = messages_->sender[id];
      Tracked(id, [this](SenderState& m) { m.started_at = sched_->Now(); });
      if (reach_ != nullptr &&
          !reach_->Reachable(host_, host_port_, messages_->info[id].spec.dst_host)) {
        if (reach_->MoveToLivePort(id)) return;
        return Abandon(id);
      }
      if (config_.cc == CongestionControl::kDcqcn) msg.dcqcn = cong::InitialState(config_.dcqcn);
      if (config_.cc == CongestionControl::kHpcc) {
        HpccQp& qp = (*hpcc_)[id];
        qp.state = cong::InitialState(qp.config);
      }
      msg.next_send = sched_->Now();
      Enqueue(id);
      port_->Kick();
      return;
    }
    case Timer::kRetransmit:
      return OnRetransmitTimer(id);
    case Timer::kWakeup:
      if (generation != (wakeup_generation_ & kGenerationMask)) return;
      wakeup_at_ = Time::Infinite();
      port_->Kick();
      return;
  }
}

bool Nic::CanSend(uint32_t id, const SenderState& msg) const {
  if (msg.next_psn >= messages_->info[id].packets_total) return false;
  if (msg.next_psn - msg.acked_packets >= config_.send_window_packets) return false;
  if (config_.cc != CongestionControl::kHpcc) return true;
  // As the HPCC authors' NIC: a packet may leave while the bytes in flight are below W (so W is
  // exceeded by less than one packet). Go-back-N rewinds next_psn, and the window with it.
  // Out of order, what the receiver holds past a gap is not in flight.
  const uint32_t in_flight =
      selective_ != nullptr ? selective_->InFlightPackets(msg) : msg.next_psn - msg.acked_packets;
  const int64_t in_flight_bytes = static_cast<int64_t>(in_flight) * full_packet_wire_bytes_;
  return static_cast<double>(in_flight_bytes) < (*hpcc_)[id].state.window_bytes;
}

void Nic::Enqueue(uint32_t id) {
  SenderState& msg = messages_->sender[id];
  if (msg.send_queue != SendQueue::kNone || !CanSend(id, msg)) return;
  if (config_.cc == CongestionControl::kDcqcn) CatchUpDcqcn(id, msg);
  if (!paced_ || msg.next_send <= sched_->Now()) {
    msg.send_queue = SendQueue::kReady;
    ready_.push(id);
  } else {
    PushWaiting(id, msg);
  }
}

void Nic::PushWaiting(uint32_t id, SenderState& msg) {
  msg.send_queue = SendQueue::kWaiting;
  waiting_.push_back(Waiting{msg.next_send, id, ++msg.pace_generation});
  std::push_heap(waiting_.begin(), waiting_.end(), std::greater<>());
}

Time Nic::DcqcnNextSend(const SenderState& msg, Time now) const {
  cong::DcqcnState s = msg.dcqcn;
  const auto gap_end = [&] {
    return msg.last_send + s.current_rate.SerializationTime(msg.last_send_wire_bytes);
  };
  Time at = std::max(now, gap_end());
  // Each expiry before the packet may start changes the rate, and so the gap, from its instant on.
  for (Time due = cong::NextTimerDue(s); due < at; due = cong::NextTimerDue(s)) {
    cong::OnTimer(config_.dcqcn, s, due);
    at = std::max(due, gap_end());
  }
  return at;
}

void Nic::CatchUpDcqcn(uint32_t id, SenderState& msg) {
  const Time now = sched_->Now();
  if (cong::NextTimerDue(msg.dcqcn) > now) return;
  const Rate before = msg.dcqcn.current_rate;
  cong::OnTimer(config_.dcqcn, msg.dcqcn, now);
  // Expiries before next_send were counted when it was set; a coalesced cut due after it was not.
  if (msg.dcqcn.current_rate != before) Repace(id, msg);
}

Time Nic::NextSend(uint32_t id, const SenderState& msg, Time now) const {
  if (config_.cc == CongestionControl::kDcqcn) return DcqcnNextSend(msg, now);
  const Rate rate = (*hpcc_)[id].state.rate;
  return std::max(now, msg.last_send + rate.SerializationTime(msg.last_send_wire_bytes));
}

void Nic::Repace(uint32_t id, SenderState& msg) {
  if (msg.last_send == Time::Infinite()) return;  // the first packet starts with the message
  const Time now = sched_->Now();
  const Time at = NextSend(id, msg, now);
  if (at == msg.next_send || (at == now && msg.next_send <= now)) return;  // due either way
  msg.next_send = at;
  // Enqueue places an idle QP by next_send, and Pull sends a ready one no earlier.
  if (msg.send_queue != SendQueue::kWaiting) return;
  PushWaiting(id, msg);  // the entry it had is stale now
  ArmWakeup();
}

void Nic::ArmWakeup() {
  // A stale entry at the front would only cause a wake-up that finds nothing to send.
  while (!waiting_.empty() &&
         waiting_.front().generation != messages_->sender[waiting_.front().id].pace_generation) {
    std::pop_heap(waiting_.begin(), waiting_.end(), std::greater<>());
    waiting_.pop_back();
  }
  if (waiting_.empty()) return;
  const Time at = waiting_.front().at;
  if (wakeup_at_ <= at) return;  // the wake-up already scheduled comes first
  wakeup_at_ = at;
  ++wakeup_generation_;
  sched_->At(at, this, EventArg(Timer::kWakeup, wakeup_generation_, 0));
}

rte_mbuf* Nic::Pull() {
  const Time now = sched_->Now();
  while (!waiting_.empty() && waiting_.front().at <= now) {
    std::pop_heap(waiting_.begin(), waiting_.end(), std::greater<>());
    const Waiting w = waiting_.back();
    waiting_.pop_back();
    SenderState& msg = messages_->sender[w.id];
    if (w.generation != msg.pace_generation) continue;  // re-paced since: another entry holds it
    if (config_.cc == CongestionControl::kDcqcn) {
      CatchUpDcqcn(w.id, msg);  // a cut that came due meanwhile re-queues it for later
      if (w.generation != msg.pace_generation) continue;
    }
    msg.send_queue = SendQueue::kReady;
    ready_.push(w.id);
  }
  // A queued QP can have nothing left when a late ACK moved next_psn past its last packet, or
  // (HPCC) an ACK shrank its window; an ACK that opens the window queues it again. A DCQCN cut
  // since it was queued can have moved its next packet into the future: it waits again.
  while (!ready_.empty()) {
    const uint32_t id = ready_.front();
    SenderState& msg = messages_->sender[id];
    if (CanSend(id, msg)) {
      if (config_.cc == CongestionControl::kDcqcn) CatchUpDcqcn(id, msg);
      if (!paced_ || msg.next_send <= now) break;
    }
    ready_.pop();
    msg.send_queue = SendQueue::kNone;
    Enqueue(id);
  }
  if (ready_.empty()) {
    ArmWakeup();
    return nullptr;
  }
  rte_mbuf* m = AllocPacket(pool_);
  if (m == nullptr) {
    ++counters_.alloc_failures;
    return nullptr;
  }
  const uint32_t id = ready_.pop();
  SenderState& msg = messages_->sender[id];
  msg.send_queue = SendQueue::kNone;
  BuildDataPacket(id, msg, m);
  if (paced_) {
    const int64_t wire_bytes = WireBytes(m);
    msg.last_send = now;
    msg.last_send_wire_bytes = static_cast<uint32_t>(wire_bytes);
    if (config_.cc == CongestionControl::kDcqcn) {
      cong::OnBytesSent(config_.dcqcn, msg.dcqcn, wire_bytes, now);
    }
    msg.next_send = NextSend(id, msg, now);
  }
  Enqueue(id);
  return m;
}

void Nic::BuildDataPacket(uint32_t id, SenderState& msg, rte_mbuf* m) {
  const MessageInfo& info = messages_->info[id];
  const uint32_t psn = msg.next_psn++;
  const bool first = psn == 0;
  const bool last = msg.next_psn == info.packets_total;
  BthOpcode op = BthOpcode::kRcSendMiddle;
  if (first && last) {
    op = BthOpcode::kRcSendOnly;
  } else if (first) {
    op = BthOpcode::kRcSendFirst;
  } else if (last) {
    op = BthOpcode::kRcSendLast;
  }
  const uint64_t offset = static_cast<uint64_t>(psn) * config_.mtu_payload_bytes;
  const uint64_t left = info.spec.size_bytes - offset;
  const auto payload =
      static_cast<uint32_t>(left < config_.mtu_payload_bytes ? left : config_.mtu_payload_bytes);
  const RoceFields f{host_,
                     info.spec.dst_host,
                     EntropyPort(info.udp_src_port, psn, config_.entropy),
                     info.spec.dscp,
                     kEcnEct0,
                     op,
                     QpnOf(id),
                     psn,
                     last};
  WriteRocePacket(m, f, payload);
  InitIntStack(m, config_.cc == CongestionControl::kHpcc);
  ++counters_.data_packets_sent;
  counters_.payload_bytes_sent += payload;
  if (psn < msg.max_psn_sent) {
    ++msg.retransmitted_packets;
    msg.retransmitted_bytes += payload;
    ++counters_.retransmitted_packets;
    counters_.retransmitted_bytes += payload;
  } else {
    msg.max_psn_sent = psn + 1;
  }
  if (selective_ != nullptr) selective_->OnSent(msg);
  ArmRetransmit(id, msg);
}

void Nic::ArmRetransmit(uint32_t id, SenderState& msg) {
  if (msg.retransmit_deadline != Time::Infinite()) return;  // running; ACKs move it on
  msg.retransmit_deadline = sched_->Now() + config_.retransmit_timeout;
  if (selective_ != nullptr) selective_->OnDeadlineSet(msg);
  // A pending event is due at an earlier deadline, as deadlines only grow: it will follow this one.
  if (msg.retransmit_event_pending) return;
  msg.retransmit_event_pending = true;
  sched_->At(msg.retransmit_deadline, this, EventArg(Timer::kRetransmit, 0, id));
}

void Nic::Abandon(uint32_t id) {
  SenderState& msg = messages_->sender[id];
  Tracked(id, [](SenderState& m) { m.unreachable = true; });
  // Nothing left to send: a queued entry finds nothing (CanSend) and drops out, the pending
  // retransmission lapses, and late ACKs move nothing (OnAck rewinds no unreachable message).
  msg.next_psn = messages_->info[id].packets_total;
  msg.retransmit_deadline = Time::Infinite();
  if (selective_ != nullptr) selective_->Release(msg);
  if (observer_ != nullptr) observer_->OnGivenUp(id);
}

void Nic::OnRetransmitTimer(uint32_t id) {
  SenderState& msg = messages_->sender[id];
  msg.retransmit_event_pending = false;
  if (msg.retransmit_deadline == Time::Infinite()) return;  // all acknowledged since
  if (msg.unreachable) return;
  // Nothing in flight: nothing to time. (Re-armed here, the timer would run for ever.)
  if (msg.acked_packets >= msg.max_psn_sent) {
    msg.retransmit_deadline = Time::Infinite();
    return;
  }
  const Time now = sched_->Now();
  if (msg.retransmit_deadline > now) {
    // ACKs, or a send after everything was acknowledged, moved the deadline on: follow it.
    msg.retransmit_event_pending = true;
    sched_->At(msg.retransmit_deadline, this, EventArg(Timer::kRetransmit, 0, id));
    return;
  }
  ++counters_.retransmit_timeouts;
  if (msg.retries == config_.retry_count) {
    msg.retries_exhausted = true;
    ++counters_.retry_exceeded;
    return Abandon(id);
  }
  ++msg.retries;
  if (selective_ != nullptr) {
    selective_->OnTimeout(msg);
  } else {
    msg.next_psn = msg.acked_packets;
  }
  msg.retransmit_deadline = Time::Infinite();
  Enqueue(id);
  port_->Kick();
  // Kick may have resent already (and armed a new deadline); otherwise arm it now.
  ArmRetransmit(id, msg);
}

void Nic::Drop(rte_mbuf* m, DropReason reason) {
  if (drops_ == nullptr) drops_ = std::make_unique<DropCounters>();
  drops_->Count(reason, FrameBytes(m));
  FreePacket(m);
}

NicCounters Nic::counters() const {
  NicCounters c;
  static_cast<NicCounts&>(c) = counters_;
  if (drops_ != nullptr) c.drops = *drops_;
  return c;
}

}  // namespace fe::dp
