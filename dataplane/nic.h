// The emulated RoCE NIC of one host: it segments messages into MTU-sized RC SEND packets, sends
// them at line rate (round-robin over its active queue pairs, pulled by its port whenever the wire
// frees), acknowledges at the receiver and completes a message when its last packet is ACKed.
#pragma once

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <cstdint>

#include "core/fifo.h"
#include "core/scheduler.h"
#include "dataplane/drop_reason.h"
#include "dataplane/egress_port.h"
#include "dataplane/element.h"
#include "dataplane/message.h"

namespace fe::dp {

struct NicParams {
  uint32_t mtu_payload_bytes = 4096;  // RoCE path MTU: payload bytes per packet
  uint32_t ack_every_packets = 1;     // the receiver ACKs every n-th packet and every last one
};

struct NicCounters {
  uint64_t data_packets_sent = 0;
  uint64_t data_packets_received = 0;
  uint64_t payload_bytes_sent = 0;
  uint64_t payload_bytes_received = 0;
  uint64_t acks_sent = 0;
  uint64_t acks_received = 0;
  uint64_t out_of_sequence = 0;  // data packets whose PSN was not the expected one
  uint64_t alloc_failures = 0;   // the packet pool was empty when a packet was due
  DropCounters drops;
};

class Nic final : public PacketReceiver, public PacketSource, public EventHandler {
 public:
  Nic(uint32_t host, Scheduler* sched, EgressPort* port, rte_mempool* pool, MessageTable* messages,
      const NicParams& params);

  // Starts sending message id (already in the table with this host as source) at its start time.
  void ScheduleMessage(uint32_t id);

  void Receive(uint16_t local_port, rte_mbuf* m) override;
  rte_mbuf* Pull() override;
  void OnEvent(uint64_t message_id) override;  // a message's start time has come

  uint32_t host() const { return host_; }
  const NicCounters& counters() const { return counters_; }

 private:
  void OnData(rte_mbuf* m, uint32_t message, uint32_t psn, uint8_t opcode);
  void OnAck(uint32_t message, uint32_t psn);
  void SendAck(MessageState& msg, uint32_t psn);
  void Drop(rte_mbuf* m, DropReason reason);

  uint32_t host_;
  Scheduler* sched_;
  EgressPort* port_;
  rte_mempool* pool_;
  MessageTable* messages_;
  NicParams params_;
  Fifo<uint32_t> active_;  // messages with packets left to send, served round-robin
  NicCounters counters_;
};

}  // namespace fe::dp
