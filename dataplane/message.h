// A message is one RDMA SEND from a source host's NIC to a destination host's NIC, carried by its
// own RC queue pair. MessageTable holds each message's state, split by which NIC writes it.
#pragma once

#include <cstdint>
#include <vector>

#include "congestion/cnp_pacer.h"
#include "congestion/dcqcn.h"
#include "core/units.h"
#include "dataplane/psn_window.h"

namespace fe::dp {

struct MessageSpec {
  uint32_t src_host = 0;
  uint32_t dst_host = 0;
  uint64_t size_bytes = 0;
  Time start;
  uint8_t dscp = 26;  // RoCE traffic class by common convention
  // Waits for others: it starts when Fabric::Release says, no earlier than `start`.
  bool held = false;
};

// QP numbers below 0x100 are left free: IBA reserves QP0 and QP1, and real NICs start higher.
inline constexpr uint32_t kFirstQpn = 0x100;
inline constexpr uint32_t kMaxMessages = (1u << 24) - kFirstQpn;
inline constexpr uint32_t QpnOf(uint32_t message) { return kFirstQpn + message; }

// Where a sending QP sits in its NIC.
enum class SendQueue : uint8_t {
  kNone,     // nothing to send (all sent, or the HPCC window is full)
  kReady,    // in the round-robin queue of QPs whose next packet may start
  kWaiting,  // in the pacing heap until next_send
};

// Fixed once the message is added; both ends read it.
struct MessageInfo {
  MessageSpec spec;
  uint32_t packets_total = 0;
  uint16_t udp_src_port = 0;
  // The port of the source host whose NIC sends it (Fabric::sender): Graph::HostPortTo's, or
  // another scale-up port the message moved to at its start, its own being cut off.
  uint16_t src_port = 0;
};

// Written by the sending NIC alone (the NIC Fabric::sender names).
struct SenderState {
  uint32_t next_psn = 0;       // next packet to send; go-back-N rewinds it
  uint32_t max_psn_sent = 0;   // one past the highest PSN ever sent: below it, a send is a resend
  uint32_t acked_packets = 0;  // cumulative: every PSN below it is acknowledged
  SendQueue send_queue = SendQueue::kNone;
  // Out-of-order mode: its window of selectively acknowledged PSNs (selective_sender.h).
  uint32_t sack_window = kNoWindow;
  // No path led to the destination (after a failure, or at the start): the sender gave the
  // message up, as an RC QP goes to its error state, and sends none of it again.
  bool unreachable = false;
  // Given up (and so unreachable) because retransmission timeouts came NicConfig::retry_count + 1
  // times in a row without ACK progress, as an RC QP errors out when its retry_cnt runs out.
  bool retries_exhausted = false;
  uint8_t retries = 0;  // retransmission timeouts since the last ACK progress
  // A message it waited for was given up, so it will never start (it was never scheduled).
  bool cancelled = false;
  Time retransmit_deadline = Time::Infinite();  // Infinite: nothing unacknowledged
  // One RTO event at a time: it fires at or before the deadline (ACKs only move it later) and
  // then follows it, or lapses if everything was acknowledged meanwhile.
  bool retransmit_event_pending = false;
  uint64_t retransmitted_packets = 0;
  uint64_t retransmitted_bytes = 0;  // payload
  uint64_t cnps_received = 0;
  // Sender congestion control (DCQCN reaction point), used when the NIC runs it; HPCC's state is
  // in an HpccTable beside this table. No event advances it: it stands as of the QP's last send,
  // CNP or pacing decision, and the policy replays the increase-timer expiries due since then on
  // its next call (cong::OnTimer on a copy gives the state at any later time).
  cong::DcqcnState dcqcn;
  // Pacing: the next packet may start one gap at the QP's rate after the last one started, so a
  // rate change re-spaces it from last_send.
  Time next_send;                        // earliest start of the QP's next packet
  Time last_send = Time::Infinite();     // start of its last packet; Infinite: none yet
  uint32_t last_send_wire_bytes = 0;     // wire bytes of that packet
  uint32_t pace_generation = 0;          // a pacing-heap entry of another generation is stale
  Time started_at = Time::Infinite();    // its start event ran: dependencies met, time reached
  Time completed_at = Time::Infinite();  // last ACK at the sender

  bool started() const { return started_at != Time::Infinite(); }
  bool completed() const { return completed_at != Time::Infinite(); }
};

// Written by the receiving NIC alone.
struct ReceiverState {
  uint32_t expected_psn = 0;  // the first PSN not yet received
  uint32_t packets_since_ack = 0;
  bool nak_outstanding = false;  // a NAK went out for the current gap; cleared when it fills
  // Out-of-order mode: its window of what arrived past expected_psn (ooo_receiver.h).
  uint32_t reorder_window = kNoWindow;
  cong::CnpPacerState cnp_pacer;  // notification point: when this QP may send its next CNP
  uint64_t bytes_delivered = 0;
  Time delivered_at = Time::Infinite();  // last byte at the receiver

  bool delivered() const { return delivered_at != Time::Infinite(); }
};
static_assert(sizeof(MessageInfo) == 40 && sizeof(SenderState) == 184 &&
                  sizeof(ReceiverState) == 40,
              "memory per message: 40 B fixed + 184 B sender + 40 B receiver = 264 B, what "
              "docs/performance.md states; every message pays a field added here");

// Told of what becomes of messages: the receiving NIC reports a delivery, the sending NIC a
// message it gave up. Each call runs in the scheduler domain of the NIC that makes it.
class MessageObserver {
 public:
  virtual ~MessageObserver() = default;
  // The last byte of message id reached its receiver, in order, at `at` (now).
  virtual void OnDelivered(uint32_t id, Time at) = 0;
  // The sender gave message id up as unreachable: unless its last bytes are already on their
  // way, it will not be delivered.
  virtual void OnGivenUp(uint32_t id) = 0;
};

// Every message's state by id, in three arrays: what is fixed, what the sender writes and what
// the receiver writes. Neither end writes what the other writes or reads, but for the fixed part,
// so the two ends of a message can run on different cores.
struct MessageTable {
  std::vector<MessageInfo> info;
  std::vector<SenderState> sender;
  std::vector<ReceiverState> receiver;

  size_t size() const { return info.size(); }
  void reserve(size_t n) {
    info.reserve(n);
    sender.reserve(n);
    receiver.reserve(n);
  }
  // Appends a message; returns its id.
  uint32_t Add(const MessageInfo& m) {
    info.push_back(m);
    sender.emplace_back();
    receiver.emplace_back();
    return static_cast<uint32_t>(info.size() - 1);
  }
  const MessageSpec& spec(uint32_t id) const { return info[id].spec; }
  bool delivered(uint32_t id) const { return receiver[id].delivered(); }
  bool completed(uint32_t id) const { return sender[id].completed(); }
  // Nothing more will happen to it: completed, given up as unreachable, or never to start. A run
  // ends when every message is finished.
  bool finished(uint32_t id) const {
    const SenderState& s = sender[id];
    return s.completed() || s.unreachable || s.cancelled;
  }
  // Started and not finished yet.
  bool in_progress(uint32_t id) const { return sender[id].started() && !finished(id); }
};

}  // namespace fe::dp
