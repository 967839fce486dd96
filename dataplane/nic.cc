#include "dataplane/nic.h"
#include "dataplane/packet_pool.h"

#include <rte_byteorder.h>
#include <rte_ip.h>

#include <algorithm>
#include <array>
#include <functional>
#include <span>
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
  retry_exceeded += o.retry_exceeded;
  acks_sent += o.acks_sent;
  acks_received += o.acks_received;
  naks_sent += o.naks_sent;
  naks_received += o.naks_received;
  cnps_sent += o.cnps_sent;
  cnps_received += o.cnps_received;
  ce_marked_received += o.ce_marked_received;
  out_of_sequence += o.out_of_sequence;
  duplicates += o.duplicates;
  alloc_failures += o.alloc_failures;
}

namespace {

constexpr uint8_t kDscpAck = 26;  // ACKs ride the data class, as RoCE NICs send them
constexpr uint8_t kDscpCnp = 48;

// Event argument: timer kind (2 bits) | generation (38 bits) | message id (24 bits).
constexpr int kIdBits = 24;
constexpr int kGenerationBits = 38;
constexpr uint64_t kIdMask = (uint64_t{1} << kIdBits) - 1;
constexpr uint64_t kGenerationMask = (uint64_t{1} << kGenerationBits) - 1;

bool IsData(uint8_t opcode) {
  return opcode == static_cast<uint8_t>(BthOpcode::kRcSendFirst) ||
         opcode == static_cast<uint8_t>(BthOpcode::kRcSendMiddle) ||
         opcode == static_cast<uint8_t>(BthOpcode::kRcSendLast) ||
         opcode == static_cast<uint8_t>(BthOpcode::kRcSendOnly);
}

uint32_t RocePayloadBytes(const rte_mbuf* m) {
  const auto* ip = rte_pktmbuf_mtod_offset(m, const rte_ipv4_hdr*, kIpv4Offset);
  const uint32_t total = rte_be_to_cpu_16(ip->total_length);
  constexpr uint32_t kOverhead = kIpv4HeaderBytes + kUdpHeaderBytes + kBthBytes + kIcrcBytes;
  return total > kOverhead ? total - kOverhead : 0;
}

// The AETH syndrome of an acknowledge packet, or 0xff when the frame has no AETH.
uint8_t AethSyndrome(const rte_mbuf* m) {
  if (rte_pktmbuf_data_len(m) < kRoceHeadersBytes + kAethBytes) return 0xff;
  return *rte_pktmbuf_mtod_offset(m, const uint8_t*, kRoceHeadersBytes);
}

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
  NicConfig c;
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
      msg.started_at = sched_->Now();
      if (reach_ != nullptr &&
          !reach_->Reachable(host_, host_port_, messages_->info[id].spec.dst_host)) {
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
  if (config_.cc != CongestionControl::kHpcc) return true;
  // As the HPCC authors' NIC: a packet may leave while the bytes in flight are below W (so W is
  // exceeded by less than one packet). Go-back-N rewinds next_psn, and the window with it.
  const int64_t in_flight_bytes =
      static_cast<int64_t>(msg.next_psn - msg.acked_packets) * full_packet_wire_bytes_;
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
  const RoceFields f{
      host_, info.spec.dst_host, info.udp_src_port, info.spec.dscp, kEcnEct0, op, QpnOf(id), psn,
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
  ArmRetransmit(id, msg);
}

void Nic::ArmRetransmit(uint32_t id, SenderState& msg) {
  if (msg.retransmit_deadline != Time::Infinite()) return;  // running; ACKs move it on
  msg.retransmit_deadline = sched_->Now() + config_.retransmit_timeout;
  // A pending event is due at an earlier deadline, as deadlines only grow: it will follow this one.
  if (msg.retransmit_event_pending) return;
  msg.retransmit_event_pending = true;
  sched_->At(msg.retransmit_deadline, this, EventArg(Timer::kRetransmit, 0, id));
}

void Nic::Abandon(uint32_t id) {
  SenderState& msg = messages_->sender[id];
  msg.unreachable = true;
  // Nothing left to send: a queued entry finds nothing (CanSend) and drops out, the pending
  // retransmission lapses, and late ACKs move nothing (OnAck rewinds no unreachable message).
  msg.next_psn = messages_->info[id].packets_total;
  msg.retransmit_deadline = Time::Infinite();
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
  msg.next_psn = msg.acked_packets;
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

void Nic::Receive(uint16_t /*local_port*/, rte_mbuf* m) {
  HeaderView h;
  if (ParseHeaders(m, &h) != ParseError::kNone || !h.is_roce) return Drop(m, DropReason::kNotRoce);
  const uint32_t id = h.dest_qp - kFirstQpn;
  if (h.dest_qp < kFirstQpn || id >= messages_->size()) return Drop(m, DropReason::kUnknownQp);
  if (IsData(h.opcode)) {
    OnData(m, id, h);
  } else if (h.opcode == static_cast<uint8_t>(BthOpcode::kRcAcknowledge)) {
    OnAck(m, id, h.psn);
  } else if (h.opcode == static_cast<uint8_t>(BthOpcode::kCnp)) {
    OnCnp(id);
  } else {
    return Drop(m, DropReason::kNotRoce);
  }
  FreePacket(m);
}

void Nic::OnData(rte_mbuf* m, uint32_t id, const HeaderView& h) {
  ReceiverState& msg = messages_->receiver[id];
  ++counters_.data_packets_received;
  if (h.ecn == kEcnCe) {
    ++counters_.ce_marked_received;
    if (cong::ShouldSendCnp(config_.cnp_pacer, msg.cnp_pacer, sched_->Now())) SendCnp(id);
  }
  if (h.psn > msg.expected_psn) {
    // Go-back-N: the packets past a gap are discarded, and one NAK per gap names the first
    // missing PSN (IBA 9.7.5.1.2: a NAK's BTH PSN is the PSN the responder expects).
    ++counters_.out_of_sequence;
    if (!msg.nak_outstanding) {
      msg.nak_outstanding = true;
      ++counters_.naks_sent;
      SendAck(id, msg, kAethNakPsnError, msg.expected_psn, m);
    }
    return;
  }
  const bool last = h.opcode == static_cast<uint8_t>(BthOpcode::kRcSendLast) ||
                    h.opcode == static_cast<uint8_t>(BthOpcode::kRcSendOnly);
  if (h.psn < msg.expected_psn) {
    // A resend of something delivered (its ACK was lost or late): re-ACK so the sender learns.
    ++counters_.duplicates;
  } else {
    const uint32_t payload = RocePayloadBytes(m);
    ++msg.expected_psn;
    msg.nak_outstanding = false;
    msg.bytes_delivered += payload;
    counters_.payload_bytes_received += payload;
    if (last) {
      msg.delivered_at = sched_->Now();
      if (observer_ != nullptr) observer_->OnDelivered(id, msg.delivered_at);
    }
  }
  if (++msg.packets_since_ack >= config_.ack_every_packets || last) {
    SendAck(id, msg, kAethAck, msg.expected_psn - 1, m);
  }
}

void Nic::SendAck(uint32_t id, ReceiverState& r, uint8_t syndrome, uint32_t psn,
                  const rte_mbuf* echo) {
  r.packets_since_ack = 0;
  rte_mbuf* a = AllocPacket(pool_);
  if (a == nullptr) {
    ++counters_.alloc_failures;
    return;
  }
  const MessageInfo& info = messages_->info[id];
  const RoceFields f{host_,    info.spec.src_host,        info.udp_src_port, kDscpAck,
                     kEcnEct0, BthOpcode::kRcAcknowledge, QpnOf(id),         psn,
                     false};
  WriteRoceAck(a, f, syndrome, r.expected_psn);
  CopyIntStack(echo, a);  // HPCC: the sender reads the path's telemetry from the ACK
  ++counters_.acks_sent;
  port_->Enqueue(a, config_.ack_queue);
}

void Nic::SendCnp(uint32_t id) {
  rte_mbuf* c = AllocPacket(pool_);
  if (c == nullptr) {
    ++counters_.alloc_failures;
    return;
  }
  // Annex A17.9.3: the CNP goes to the sender's QP; its PSN is unused.
  const MessageInfo& info = messages_->info[id];
  const RoceFields f{host_,      info.spec.src_host, info.udp_src_port, kDscpCnp,
                     kEcnNotEct, BthOpcode::kCnp,    QpnOf(id),         0,
                     false};
  WriteRoceCnp(c, f);
  InitIntStack(c, false);
  ++counters_.cnps_sent;
  port_->Enqueue(c, config_.cnp_queue);
}

void Nic::OnAck(rte_mbuf* m, uint32_t id, uint32_t psn) {
  SenderState& msg = messages_->sender[id];
  const bool nak = AethSyndrome(m) == kAethNakPsnError;
  // The receiver ACKs only PSNs it got and NAKs the one it expects, which is at least what it
  // acknowledged: anything else (a real host on the fabric may send any frame) comes from no
  // receiver of this QP and is ignored, as an RNIC ignores an ACK for a PSN it never sent. Taken
  // in, it would complete a message nobody received, or rewind below what is acknowledged and
  // keep the retransmission timer running with nothing to resend.
  if (psn >= msg.max_psn_sent || (nak && psn < msg.acked_packets)) return;
  ++counters_.acks_received;
  if (nak) ++counters_.naks_received;
  // An ACK acknowledges its PSN and all before; a NAK everything before the PSN it names.
  const uint32_t acked = nak ? psn : psn + 1;
  const bool progress = acked > msg.acked_packets;
  if (progress) {
    msg.acked_packets = acked;
    msg.retries = 0;
  }
  if (msg.next_psn < msg.acked_packets) msg.next_psn = msg.acked_packets;
  if (nak && psn < msg.next_psn && !msg.unreachable) {
    msg.next_psn = psn;  // go back N
    Enqueue(id);
    port_->Kick();
  }
  if (progress) {
    if (msg.acked_packets >= msg.max_psn_sent) {
      msg.retransmit_deadline = Time::Infinite();  // the pending event lapses, or follows a send
    } else {
      msg.retransmit_deadline = sched_->Now() + config_.retransmit_timeout;
    }
  }
  if (msg.acked_packets == messages_->info[id].packets_total && !msg.completed()) {
    msg.completed_at = sched_->Now();
  }
  if (config_.cc == CongestionControl::kHpcc) OnHpccAck(m, id, msg);
}

void Nic::OnHpccAck(const rte_mbuf* m, uint32_t id, SenderState& msg) {
  HpccQp& qp = (*hpcc_)[id];
  std::array<StampedHop, kMaxStampedHops> stamped;
  const uint32_t n = ReadIntStack(m, stamped);
  std::array<cong::IntHop, kMaxStampedHops> hops;
  for (uint32_t i = 0; i < n; ++i) hops[i] = ExpandIntHop(stamped[i], qp.state.last_hops[i]);
  // Sequence numbers in packets: max_psn_sent, unlike next_psn, never goes back.
  const Rate before = qp.state.rate;
  cong::OnAck(qp.config, qp.state, std::span<const cong::IntHop>(hops.data(), n), msg.acked_packets,
              msg.max_psn_sent);
  // A QP waiting out its gap takes the new rate at once, not after the gap of the old one.
  if (qp.state.rate != before) Repace(id, msg);
  // The ACK freed room in the window, or the window grew.
  if (msg.send_queue == SendQueue::kNone && CanSend(id, msg)) {
    Enqueue(id);
    port_->Kick();
  }
}

void Nic::OnCnp(uint32_t id) {
  SenderState& msg = messages_->sender[id];
  ++msg.cnps_received;
  ++counters_.cnps_received;
  if (config_.cc != CongestionControl::kDcqcn) return;  // HPCC reads INT, not ECN
  cong::OnCnp(config_.dcqcn, msg.dcqcn, sched_->Now());
  // Even without a cut (coalesced into the monitor period's end, or already at the floor) the CNP
  // changed when the rate will next move, on which the packet's start was computed.
  Repace(id, msg);
}

}  // namespace fe::dp
