// The emulated RoCE NIC of one host, an RC endpoint: it segments messages into MTU-sized RC SEND
// packets, paces each queue pair at its congestion-control rate (round-robin among the QPs whose
// turn has come, pulled by its port whenever the wire frees), acknowledges at the receiver (a NAK
// on a sequence gap), recovers losses by go-back-N (on NAK or retransmission timeout), answers
// CE-marked packets with CNPs, and completes a message when its last packet is ACKed. In the
// out-of-order mode the receiver instead places packets by PSN and acknowledges selectively, and
// the sender resends only what is missing (ooo_receiver.h, selective_sender.h); a QP may also
// spread its packets over several UDP source ports (entropy.h).
//
// Under HPCC a QP's data packets collect in-band telemetry, and each ACK's echo of it sets the
// QP's window (bytes in flight) and pacing rate.
//
// Timers are lazy: a QP has at most one retransmission event (scheduled once per stretch of
// unacknowledged packets; it follows the deadline the ACKs move), DCQCN needs no event at all, and
// the NIC has at most one pacing wake-up. Superseded events are recognised and ignored, so nothing
// is ever cancelled or polled.
//
// As a NIC's rate limiter does, a DCQCN rate change re-evaluates the gap a QP is waiting out: its
// next packet may start one gap at the new rate after its last one started (at once if that has
// passed). A QP cut to the minimum rate would otherwise sit out the minimum rate's gap (tens of
// ms for a 4 KB packet at 1 Mb/s) through every increase that comes meanwhile. The increase
// timer's expiries are known in advance, so the NIC does not wait for them: when it spaces a
// packet it runs them forward on a copy of the QP's state and queues the QP for the first instant
// at which the gap at the rate of that instant has passed. The QP's own state catches up (the
// policy replays due expiries) when it next sends, is next considered for sending, or gets a CNP;
// only a CNP can change the trajectory, and it re-spaces the packet.
#pragma once

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "congestion/cnp_pacer.h"
#include "congestion/dcqcn.h"
#include "congestion/hpcc.h"
#include "core/fifo.h"
#include "core/scheduler.h"
#include "core/status.h"
#include "dataplane/drop_reason.h"
#include "dataplane/egress_port.h"
#include "dataplane/element.h"
#include "dataplane/entropy.h"
#include "dataplane/message.h"
#include "dataplane/ooo_receiver.h"
#include "dataplane/packet.h"
#include "dataplane/selective_sender.h"

namespace fe::dp {

// The priorities a NIC queues its own frames on at its port (its data is pulled, not queued).
inline constexpr uint8_t kAckQueue = 3;
// NVIDIA's cnp_dscp / cnp_802p_prio defaults: CNPs get their own, higher class so a congested
// data queue does not delay the signal that relieves it.
inline constexpr uint8_t kCnpQueue = 6;

enum class CongestionControl : uint8_t {
  kNone,   // every QP at line rate
  kDcqcn,  // DCQCN reaction point per QP
  kHpcc,   // HPCC window and rate per QP, from the path's in-band telemetry
};

// IB verbs' retry_cnt is 3 bits wide.
inline constexpr uint32_t kMaxRetryCount = 7;

struct NicParams {
  uint32_t mtu_payload_bytes = 4096;  // RoCE path MTU: payload bytes per packet
  uint32_t ack_every_packets = 1;     // the receiver ACKs every n-th packet and every last one
  // Go-back-N from the first unacknowledged PSN when no ACK progress came for this long.
  // 4.096 us x 2^14: InfiniBand's local ACK timeout at the value 14 that RDMA tools commonly use.
  Time retransmit_timeout = Time::FromNs(67'108'864);
  // Retransmission timeouts in a row, without ACK progress, that a message survives; the next one
  // gives it up (Abandon), as an RC QP goes to its error state when its retry_cnt runs out. 7: the
  // largest retry_cnt of IB verbs, and the one RDMA tools commonly set.
  uint32_t retry_count = 7;
  // Notification point: at most one CNP per receiving QP per interval (SIGCOMM'15: 50 us).
  cong::CnpPacerParams cnp_pacer;
  CongestionControl cc = CongestionControl::kNone;
  cong::DcqcnParams dcqcn;  // line_rate is taken from the NIC's port
  // line_rate is taken from the NIC's port; base_rtt per QP from its path (PathBaseRtt).
  cong::HpccParams hpcc;
  // Out-of-order mode: the receiver places packets by PSN anywhere in a window of this many PSNs
  // past its first missing one and acknowledges selectively; the sender runs at most that far
  // ahead of the cumulative acknowledgement and resends only what is missing. Off: in-order RC,
  // go-back-N.
  bool out_of_order = false;
  uint32_t reorder_window_packets = 256;  // a multiple of 64
  // Out-of-order mode: a PSN is resent at once when this many PSNs past it were selectively
  // acknowledged (0: only on timeout). See SelectiveSender.
  uint32_t sack_resend_threshold = 0;
  Entropy entropy;  // source ports per QP
};

// NicParams checked and compiled for a NIC whose port runs at a given rate.
struct NicConfig {
  uint32_t mtu_payload_bytes = 0;
  uint32_t ack_every_packets = 0;
  Time retransmit_timeout;
  uint32_t retry_count = 0;
  cong::CnpPacerConfig cnp_pacer;
  CongestionControl cc = CongestionControl::kNone;
  // kAckQueue's and kCnpQueue's queues at the NIC's port, set by the Nic: here, beside what an
  // ACK reads anyway, they cost no line of their own.
  QueueId ack_queue{};
  QueueId cnp_queue{};
  cong::DcqcnConfig dcqcn;
  cong::HpccParams hpcc;  // checked; compiled per QP by CompileHpccQp
  bool out_of_order = false;
  // PSNs a QP may send past its cumulative acknowledgement: the receiver's window out of order,
  // unbounded in order.
  uint32_t send_window_packets = UINT32_MAX;
  uint32_t sack_resend_threshold = 0;
  Entropy entropy;
};
static_assert(offsetof(NicConfig, ack_every_packets) < 64 && offsetof(NicConfig, cnp_pacer) < 64 &&
                  offsetof(NicConfig, ack_queue) < 64 && offsetof(NicConfig, cnp_queue) < 64,
              "hot fields in the config's first line: the ACK and CNP queues beside what a data "
              "packet's receipt reads anyway (ACK spacing, CNP pacing)");

// Refuses bad parameters; the message names the field ("nic.retransmit_timeout: ...").
StatusOr<NicConfig> CompileNicParams(const NicParams& params, Rate port_rate);

// HPCC of one QP: W_init and the rate follow from its path's base RTT.
struct HpccQp {
  cong::HpccConfig config;
  cong::HpccState state;
};
// By message id, beside the MessageTable, and only in HPCC runs: HpccState holds a whole INT
// stack, which other runs should not carry per message.
using HpccTable = std::vector<HpccQp>;

// The HPCC configuration of a QP of a NIC compiled with `config`, over a path of this base RTT.
StatusOr<cong::HpccConfig> CompileHpccQp(const NicConfig& config, Time base_rtt);

// What a NIC counts as its packets come and go; NicCounters adds its drops.
struct NicCounts {
  uint64_t data_packets_sent = 0;  // first transmissions and retransmissions
  uint64_t data_packets_received = 0;
  uint64_t payload_bytes_sent = 0;
  uint64_t payload_bytes_received = 0;  // in order: delivered to the message
  uint64_t retransmitted_packets = 0;   // included in data_packets_sent
  uint64_t retransmitted_bytes = 0;     // payload, included in payload_bytes_sent
  uint64_t retransmit_timeouts = 0;
  uint64_t fast_retransmits = 0;  // out of order: PSNs resent as SACKs reported them missing
  uint64_t retry_exceeded = 0;    // messages given up after retry_count timeouts in a row
  uint64_t acks_sent = 0;
  uint64_t acks_received = 0;
  uint64_t naks_sent = 0;
  uint64_t naks_received = 0;
  uint64_t cnps_sent = 0;
  uint64_t cnps_received = 0;
  uint64_t ce_marked_received = 0;  // data packets arriving with IP ECN = CE
  uint64_t out_of_sequence = 0;     // data packets past a gap, discarded (go-back-N resends them)
  // Data packets that arrived with a PSN above the one expected next, kept (out of order) or not.
  uint64_t reordered_packets = 0;
  uint64_t duplicates = 0;      // data packets already delivered, discarded and re-ACKed
  uint64_t alloc_failures = 0;  // the packet pool was empty when a packet was due

  void Add(const NicCounts& o);
};

struct NicCounters : NicCounts {
  DropCounters drops;

  // Sums another NIC's counters into these (fabric totals).
  void Add(const NicCounters& o) {
    NicCounts::Add(o);
    drops.Add(o.drops);
  }
};

// Whether a NIC's messages can reach their destination under the fabric's current routes.
class Reachability {
 public:
  virtual ~Reachability() = default;
  virtual bool Reachable(uint32_t src_host, uint16_t src_port, uint32_t dst_host) const = 0;
  // Message id, about to start and cut off from its destination at its sending port: hands it to
  // another port of its host that reaches it, to start there now. False if there is none.
  virtual bool MoveToLivePort(uint32_t id) = 0;
};

class Nic final : public PacketReceiver, public PacketSource, public EventHandler {
 public:
  // hpcc: the QPs' HPCC state, by message id, when config.cc is kHpcc (unused otherwise); its
  // entry for a message must be compiled before the message starts.
  Nic(uint32_t host, Scheduler* sched, EgressPort* port, rte_mempool* pool, MessageTable* messages,
      const NicConfig& config, HpccTable* hpcc = nullptr);

  // Starts sending message id (already in the table with this host as source) at its start time.
  void ScheduleMessage(uint32_t id) { StartAt(id, messages_->info[id].spec.start); }
  // The same at `at`: a held message, once what it waits for is done. From another domain than
  // the NIC's, `at` must be at least the lookahead past now (Scheduler::AtIn).
  void StartAt(uint32_t id, Time at);
  // Marks message id, never started, as one that will not start (a message it waits for was
  // given up), or revokes that.
  void SetCancelled(uint32_t id, bool cancelled) {
    Tracked(id, [cancelled](SenderState& msg) { msg.cancelled = cancelled; });
  }
  // Deliveries this NIC receives and messages it gives up are reported to `observer` (nullptr:
  // to no one).
  void SetObserver(MessageObserver* observer) { observer_ = observer; }
  // From now on a message starting on this NIC, the host's port `port`, first asks `reach`
  // whether its destination can be reached, and if not moves to another port that reaches it
  // (Reachability::MoveToLivePort) or is given up (Abandon).
  void SetReachability(Reachability* reach, uint16_t port) {
    reach_ = reach;
    host_port_ = port;
  }
  // Gives message id up: marks it unreachable and never sends of it again. Its queue entries and
  // timers lapse.
  void Abandon(uint32_t id);

  void Receive(uint16_t local_port, rte_mbuf* m) override;
  rte_mbuf* Pull() override;
  void OnEvent(uint64_t arg) override;  // message start, or one of the lazy timers

  uint32_t host() const { return host_; }
  const NicConfig& config() const { return config_; }
  // DCQCN parameters from now on (a command while a run goes on): QPs keep their rates and state.
  void SetDcqcn(const cong::DcqcnConfig& dcqcn) { config_.dcqcn = dcqcn; }
  NicCounters counters() const;
  uint64_t alloc_failures() const { return counters_.alloc_failures; }
  // How much this NIC changed the count of messages in progress (MessageTable::in_progress) and
  // of those finished. A message moved to another port at its start starts on one NIC and
  // finishes on another, so only the sums over a host's NICs are counts (Fabric sums them all).
  int64_t in_progress_change() const { return in_progress_change_; }
  int64_t finished_change() const { return finished_change_; }

 private:
  enum class Timer : uint64_t { kStart = 0, kRetransmit = 1, kWakeup = 2 };
  struct Waiting {  // a paced QP and when its next packet may start
    Time at;
    uint32_t id;
    uint32_t generation;  // stale unless it equals the QP's pace_generation
    bool operator>(const Waiting& o) const { return at > o.at || (at == o.at && id > o.id); }
  };

  static uint64_t EventArg(Timer t, uint64_t generation, uint32_t id);
  // Applies `change` to message id's sender state and counts what it did to the message's being
  // in progress or finished: the fabric then knows both counts without walking its messages.
  template <typename Change>
  void Tracked(uint32_t id, Change change) {
    const bool was_in_progress = messages_->in_progress(id);
    const bool was_finished = messages_->finished(id);
    change(messages_->sender[id]);
    in_progress_change_ += int32_t{messages_->in_progress(id)} - int32_t{was_in_progress};
    finished_change_ += int32_t{messages_->finished(id)} - int32_t{was_finished};
  }
  // The ACK of message id's last packet is in: it completes now.
  void Complete(uint32_t id) {
    Tracked(id, [this](SenderState& m) { m.completed_at = sched_->Now(); });
  }
  void OnData(rte_mbuf* m, uint32_t id, const HeaderView& h);
  void OnAck(rte_mbuf* m, uint32_t id, uint32_t psn);
  void OnCnp(uint32_t id);
  void OnHpccAck(const rte_mbuf* m, uint32_t id, SenderState& msg);
  // The QP has a packet to send and, under HPCC, its window has room.
  bool CanSend(uint32_t id, const SenderState& msg) const;
  void OnRetransmitTimer(uint32_t id);
  // echo: the data packet answered, whose INT stack the ACK carries back.
  // extension: bytes after the AETH (the out-of-order mode's SACK block).
  void SendAck(uint32_t id, ReceiverState& r, uint8_t syndrome, uint32_t psn, const rte_mbuf* echo,
               std::span<const uint8_t> extension = {});
  // The out-of-order mode's halves of OnData and OnAck.
  void OnOutOfOrderData(rte_mbuf* m, uint32_t id, const HeaderView& h, ReceiverState& r);
  void OnSelectiveAck(rte_mbuf* m, uint32_t id, uint32_t psn);
  void SendCnp(uint32_t id);
  void BuildDataPacket(uint32_t id, SenderState& msg, rte_mbuf* m);
  // Puts a QP with packets to send into the ready queue or, if paced into the future, the heap.
  void Enqueue(uint32_t id);
  void PushWaiting(uint32_t id, SenderState& msg);
  // When the QP's next packet may start, from now on: one gap after its last packet started, at
  // the DCQCN rate of that instant as the increase timer will have moved it (no earlier than
  // now). msg.dcqcn must have replayed the expiries due by now.
  Time DcqcnNextSend(const SenderState& msg, Time now) const;
  // The same under either congestion control: under HPCC, one gap at the QP's current rate.
  Time NextSend(uint32_t id, const SenderState& msg, Time now) const;
  // The QP's rate changed (a CNP, DCQCN expiries replayed, an HPCC ACK): re-space its next
  // packet from the start of its last one.
  void Repace(uint32_t id, SenderState& msg);
  // Replays the DCQCN expiries due by now into the QP's state, re-spacing it if its rate changed.
  void CatchUpDcqcn(uint32_t id, SenderState& msg);
  void ArmRetransmit(uint32_t id, SenderState& msg);
  void ArmWakeup();
  void Drop(rte_mbuf* m, DropReason reason);

  uint32_t host_;
  Scheduler* sched_;
  EgressPort* port_;
  rte_mempool* pool_;
  MessageTable* messages_;
  NicConfig config_;
  HpccTable* hpcc_;
  // Under HPCC the window counts wire bytes (the unit of W_init = B x T) of full-sized packets.
  int64_t full_packet_wire_bytes_;
  bool paced_;  // QPs can run below line rate
  // Tracked's counts, each in the padding after a narrower field (a NIC makes at most 2^24).
  int32_t in_progress_change_ = 0;
  Fifo<uint32_t> ready_;          // QPs whose next packet may start now, round-robin
  std::vector<Waiting> waiting_;  // min-heap of paced QPs not yet due
  Time wakeup_at_ = Time::Infinite();
  uint64_t wakeup_generation_ = 0;
  NicCounts counters_;
  // A NIC drops only frames the fabric should not have brought it: the counts are made by the
  // first (a large fabric's NICs would otherwise carry 224 B of zeros each).
  std::unique_ptr<DropCounters> drops_;
  Reachability* reach_ = nullptr;
  uint16_t host_port_ = 0;
  int32_t finished_change_ = 0;
  MessageObserver* observer_ = nullptr;
  // The out-of-order mode's state (both null in order).
  std::unique_ptr<OooReceiver> ooo_receiver_;
  std::unique_ptr<SelectiveSender> selective_;
};
static_assert(sizeof(Nic) == 584,
              "a NIC is 584 bytes per host port, its rare state (drops, out-of-order mode) behind "
              "pointers: the memory table of docs/performance.md counts it");

}  // namespace fe::dp
