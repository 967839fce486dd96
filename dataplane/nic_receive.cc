// The frames a NIC receives: data (acknowledged, or NAKed on a gap; in the out-of-order mode
// placed by PSN and acknowledged with SACK blocks), and the ACKs and CNPs that drive its sending
// QPs.
#include "dataplane/nic.h"

#include <rte_byteorder.h>
#include <rte_ip.h>

#include <array>
#include <span>

#include "dataplane/int_stamp.h"
#include "dataplane/packet_pool.h"
#include "dataplane/sack.h"

namespace fe::dp {
namespace {

constexpr uint8_t kDscpAck = 26;  // ACKs ride the data class, as RoCE NICs send them
constexpr uint8_t kDscpCnp = 48;

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
  if (ooo_receiver_ != nullptr) return OnOutOfOrderData(m, id, h, msg);
  if (h.psn > msg.expected_psn) {
    ++counters_.reordered_packets;
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
                  const rte_mbuf* echo, std::span<const uint8_t> extension) {
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
  WriteRoceAck(a, f, syndrome, r.expected_psn, extension);
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

void Nic::OnOutOfOrderData(rte_mbuf* m, uint32_t id, const HeaderView& h, ReceiverState& r) {
  const uint32_t packets_total = messages_->info[id].packets_total;
  const uint32_t expected = r.expected_psn;
  if (h.psn > expected) ++counters_.reordered_packets;
  switch (ooo_receiver_->Place(r, h.psn, packets_total)) {
    case Placement::kBeyond:
      // The sender never runs this far ahead; a stray is resent once the timeout finds it lost.
      ++counters_.out_of_sequence;
      return;
    case Placement::kDuplicate:
      ++counters_.duplicates;  // re-acknowledged below, as the sender may have missed the ACK
      break;
    case Placement::kPlaced: {
      const uint32_t payload = RocePayloadBytes(m);
      r.bytes_delivered += payload;
      counters_.payload_bytes_received += payload;
      if (r.expected_psn == packets_total) {
        r.delivered_at = sched_->Now();
        if (observer_ != nullptr) observer_->OnDelivered(id, r.delivered_at);
      }
      break;
    }
  }
  // In order, every ack_every_packets-th packet is acknowledged; anything else at once, so the
  // sender learns of each packet past a gap (it must not resend it) and of the message's end.
  const bool in_order = h.psn == expected;
  if (++r.packets_since_ack >= config_.ack_every_packets || !in_order ||
      r.expected_psn == packets_total) {
    std::array<uint8_t, kSackBytes> sack;
    WriteSack(ooo_receiver_->Sack(r, h.psn), r.expected_psn, sack.data());
    // The BTH PSN is the last one received in order (before PSN 0 arrives: 0xffffff, one below it
    // in 24-bit arithmetic).
    SendAck(id, r, kAethAck, r.expected_psn - 1, m, sack);
  }
}

void Nic::OnSelectiveAck(rte_mbuf* m, uint32_t id, uint32_t psn) {
  SenderState& msg = messages_->sender[id];
  const uint32_t packets_total = messages_->info[id].packets_total;
  const uint32_t acked = (psn + 1) & 0xffffff;
  // As in OnAck: a cumulative point past anything sent comes from no receiver of this QP.
  if (acked > msg.max_psn_sent) return;
  ++counters_.acks_received;
  SackBlock sack;
  const bool has_sack = ReadSack(m, acked, &sack);
  if (selective_->OnAck(msg, acked, has_sack ? &sack : nullptr, packets_total)) {
    msg.retries = 0;
    if (msg.acked_packets >= msg.max_psn_sent) {
      msg.retransmit_deadline = Time::Infinite();  // the pending event lapses, or follows a send
    } else {
      msg.retransmit_deadline = sched_->Now() + config_.retransmit_timeout;
      selective_->OnDeadlineSet(msg);
    }
  }
  if (msg.acked_packets == packets_total && !msg.completed()) Complete(id);
  if (!msg.unreachable && selective_->FastResend(msg)) ++counters_.fast_retransmits;
  if (config_.cc == CongestionControl::kHpcc) return OnHpccAck(m, id, msg);
  // The cumulative point moved the window on, the SACK block moved the next PSN, or a hole is
  // to be resent.
  if (msg.send_queue == SendQueue::kNone && CanSend(id, msg)) {
    Enqueue(id);
    port_->Kick();
  }
}

void Nic::OnAck(rte_mbuf* m, uint32_t id, uint32_t psn) {
  if (selective_ != nullptr) return OnSelectiveAck(m, id, psn);
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
    Complete(id);
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
