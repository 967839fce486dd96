#include "dataplane/nic.h"

#include <rte_byteorder.h>
#include <rte_ip.h>

#include "dataplane/packet.h"

namespace fe::dp {

namespace {

constexpr uint8_t kDscpAck = 26;  // ACKs ride the data class, as RoCE NICs send them

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

}  // namespace

Nic::Nic(uint32_t host, Scheduler* sched, EgressPort* port, rte_mempool* pool,
         MessageTable* messages, const NicParams& params)
    : host_(host), sched_(sched), port_(port), pool_(pool), messages_(messages), params_(params) {}

void Nic::ScheduleMessage(uint32_t id) { sched_->At((*messages_)[id].spec.start, this, id); }

void Nic::OnEvent(uint64_t message_id) {
  active_.push(static_cast<uint32_t>(message_id));
  port_->Kick();
}

rte_mbuf* Nic::Pull() {
  if (active_.empty()) return nullptr;
  const uint32_t id = active_.front();
  MessageState& msg = (*messages_)[id];
  rte_mbuf* m = rte_pktmbuf_alloc(pool_);
  if (m == nullptr) {
    ++counters_.alloc_failures;
    return nullptr;
  }
  active_.pop();
  const uint32_t psn = msg.next_psn++;
  const bool first = psn == 0;
  const bool last = msg.next_psn == msg.packets_total;
  BthOpcode op = BthOpcode::kRcSendMiddle;
  if (first && last) {
    op = BthOpcode::kRcSendOnly;
  } else if (first) {
    op = BthOpcode::kRcSendFirst;
  } else if (last) {
    op = BthOpcode::kRcSendLast;
  }
  const uint64_t offset = static_cast<uint64_t>(psn) * params_.mtu_payload_bytes;
  const uint64_t left = msg.spec.size_bytes - offset;
  const auto payload =
      static_cast<uint32_t>(left < params_.mtu_payload_bytes ? left : params_.mtu_payload_bytes);
  const RoceFields f{
      host_, msg.spec.dst_host, msg.udp_src_port, msg.spec.dscp, kEcnEct0, op, QpnOf(id), psn,
      last};
  WriteRocePacket(m, f, payload);
  ++counters_.data_packets_sent;
  counters_.payload_bytes_sent += payload;
  if (!last) active_.push(id);
  return m;
}

void Nic::Drop(rte_mbuf* m, DropReason reason) {
  counters_.drops.Count(reason, FrameBytes(m));
  rte_pktmbuf_free(m);
}

void Nic::Receive(uint16_t /*local_port*/, rte_mbuf* m) {
  HeaderView h;
  if (ParseHeaders(m, &h) != ParseError::kNone || !h.is_roce) return Drop(m, DropReason::kNotRoce);
  const uint32_t message = h.dest_qp - kFirstQpn;
  if (h.dest_qp < kFirstQpn || message >= messages_->size()) {
    return Drop(m, DropReason::kUnknownQp);
  }
  if (IsData(h.opcode)) {
    OnData(m, message, h.psn, h.opcode);
  } else if (h.opcode == static_cast<uint8_t>(BthOpcode::kRcAcknowledge)) {
    OnAck(message, h.psn);
  } else {
    return Drop(m, DropReason::kNotRoce);
  }
  rte_pktmbuf_free(m);
}

void Nic::OnData(rte_mbuf* m, uint32_t message, uint32_t psn, uint8_t opcode) {
  MessageState& msg = (*messages_)[message];
  ++counters_.data_packets_received;
  if (psn != msg.expected_psn) {
    ++counters_.out_of_sequence;
    return;
  }
  const uint32_t payload = RocePayloadBytes(m);
  ++msg.expected_psn;
  msg.bytes_delivered += payload;
  counters_.payload_bytes_received += payload;
  const bool last = opcode == static_cast<uint8_t>(BthOpcode::kRcSendLast) ||
                    opcode == static_cast<uint8_t>(BthOpcode::kRcSendOnly);
  if (last) msg.delivered_at = sched_->Now();
  if (++msg.packets_since_ack >= params_.ack_every_packets || last) SendAck(msg, psn);
}

void Nic::SendAck(MessageState& msg, uint32_t psn) {
  msg.packets_since_ack = 0;
  rte_mbuf* a = rte_pktmbuf_alloc(pool_);
  if (a == nullptr) {
    ++counters_.alloc_failures;
    return;
  }
  const uint32_t id = static_cast<uint32_t>(&msg - messages_->data());
  const RoceFields f{host_,    msg.spec.src_host,         msg.udp_src_port, kDscpAck,
                     kEcnEct0, BthOpcode::kRcAcknowledge, QpnOf(id),        psn,
                     false};
  WriteRoceAck(a, f, kAethAck, msg.expected_psn);
  ++counters_.acks_sent;
  port_->Enqueue(a, 3);
}

void Nic::OnAck(uint32_t message, uint32_t psn) {
  MessageState& msg = (*messages_)[message];
  ++counters_.acks_received;
  if (psn + 1 > msg.acked_packets) msg.acked_packets = psn + 1;
  if (msg.acked_packets == msg.packets_total && !msg.completed()) {
    msg.completed_at = sched_->Now();
  }
}

}  // namespace fe::dp
