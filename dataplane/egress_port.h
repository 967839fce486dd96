// One direction of one link: the egress queues of a port, the serialiser that puts frames on the
// wire at the link rate, and the propagation delay to the peer's receiver. Frames arrive at the
// peer after serialisation + propagation (store and forward: a frame is usable once its last bit
// is in). A frame on the wire is one pending event, its arrival: on a full-duplex link that
// event belongs to the port of the other direction, at the peer, so a node's arrivals touch only
// its own state.
#pragma once

#include <rte_mbuf.h>

#include <array>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

#include "congestion/egress_scheduler.h"
#include "congestion/pfc_config.h"
#include "congestion/pfc_watchdog.h"
#include "core/chunked_fifo.h"
#include "core/fifo.h"
#include "core/random.h"
#include "core/scheduler.h"
#include "core/units.h"
#include "dataplane/credit_port.h"
#include "dataplane/drop_reason.h"
#include "dataplane/element.h"
#include "dataplane/packet.h"
#include "dataplane/queue_slots.h"

namespace fe::dp {

inline constexpr int kNumQueues = 8;
class PcapngWriter;

// Frames a link lost at one of its ends: dropped, counted, and never delivered.
struct LinkLosses {
  uint64_t sent_while_down = 0;  // frames this port started on its dead link
  uint64_t in_flight = 0;        // the peer's frames on the wire when the link died, lost here
  uint64_t bit_errors = 0;       // frames this port sent that the wire corrupted
  uint64_t link_down_bytes = 0;  // frame bytes of the first two
  uint64_t bit_error_bytes = 0;
};

// Told of every frame a link loses (kLinkDown or kBitError), before it is freed.
class LinkLossObserver {
 public:
  virtual ~LinkLossObserver() = default;
  virtual void OnLinkLoss(uint32_t link, DropReason reason, const rte_mbuf* m) = 0;
};

struct PortCounters {
  uint64_t tx_packets = 0;
  uint64_t tx_wire_bytes = 0;                                // frame + preamble + inter-frame gap
  Time busy_time;                                            // time spent serialising
  std::array<uint64_t, kNumQueues> pause_frames_received{};  // PFC frames enabling each class
  std::array<uint32_t, kNumQueues> max_queue_bytes{};
  // Integral of each queue's length over time, in byte-picoseconds, up to the queue's last change
  // (QueueByteTime brings it up to a given time); divided by the run time it is the mean length.
  std::array<double, kNumQueues> queue_byte_ps{};
  std::array<uint64_t, kNumQueues> storms_detected{};  // PFC watchdog declarations
};

// A port has queues only for the priorities its fabric uses (a large fabric's default uses three
// of eight): they follow the object in memory, one line each, so a port's size is known at run
// time only. A fabric lays its ports out in an EgressPortArray; StandaloneEgressPort is one port
// with a queue for every priority.
class alignas(64) EgressPort : public EventHandler {
 public:
  EgressPort(const EgressPort&) = delete;
  EgressPort& operator=(const EgressPort&) = delete;
  ~EgressPort() override;

  // The bytes a port with queues for `priorities` takes, its queues included.
  static size_t StrideBytes(uint8_t priorities) {
    return sizeof(EgressPort) + std::popcount(unsigned{priorities}) * sizeof(QueueState);
  }

  // A one-way link: frames reach `peer` as its port `peer_port`, as events of this port in the
  // peer's scheduler domain. Replaces a full-duplex connection.
  void ConnectPeer(PacketReceiver* peer, uint16_t peer_port, uint32_t peer_domain = 0) {
    peer_ = peer;
    peer_port_ = peer_port;
    peer_domain_ = peer_domain;
    reverse_ = nullptr;
  }
  // A full-duplex link: `reverse` is the port of the same link in the other direction, at the
  // peer, which is `peer`'s port `peer_port`. This port's frames arrive as events of `reverse`
  // (in its domain, which must be set by now), which hands them to `peer`, except MAC-control
  // (PFC) frames: they end there and pause `reverse`.
  void ConnectDuplex(PacketReceiver* peer, uint16_t peer_port, EgressPort* reverse) {
    ConnectPeer(peer, peer_port, reverse->event_domain());
    reverse_ = reverse;
    reverse->rx_node_ = peer;
    reverse->rx_port_ = peer_port;
  }
  void SetSource(PacketSource* source) { source_ = source; }
  // The source's packets travel on this priority, one the port has a queue for: while it is paused
  // the source is not asked.
  void SetSourcePriority(uint8_t prio) {
    assert(QueueSlotOf(queue_priorities_, prio) >= 0);
    source_slot_ = static_cast<uint8_t>(QueueSlotOf(queue_priorities_, prio));
  }
  // Tell `observer` (as its port `local_port`) of every packet leaving a queue.
  void SetDequeueObserver(DequeueObserver* observer, uint16_t local_port) {
    observer_ = observer;
    local_port_ = local_port;
  }
  // Where the frames' headers start from their mbuf's address (HeaderOffset of their pool), so
  // that an arrival can prefetch them without first reading the mbuf.
  void SetHeaderOffset(int32_t bytes) { header_offset_ = static_cast<int16_t>(bytes); }
  // Writes every frame this port starts to send into `writer` as `interface`, outbound, stamped
  // when its first bit leaves (nullptr: none).
  void SetCapture(PcapngWriter* writer, uint32_t interface) {
    if (writer == nullptr && rare_ == nullptr) return;
    Rare().capture = writer;
    rare_->capture_interface = interface;
    capturing_ = rare_->capture != nullptr || rare_->capture_in != nullptr;
  }
  // The same frames as the far end of the link receives them: inbound on `interface`, stamped
  // when the first bit arrives there (nullptr: none). A port's received frames are its peer's
  // sent ones.
  void SetPeerCapture(PcapngWriter* writer, uint32_t interface) {
    if (writer == nullptr && rare_ == nullptr) return;
    Rare().capture_in = writer;
    rare_->capture_in_interface = interface;
    capturing_ = rare_->capture != nullptr || rare_->capture_in != nullptr;
  }
  // Link state. A port whose link is down still serialises what it sends (it does not know the
  // link is dead until routes change) but the frames are lost, as are frames of the peer's on the
  // wire towards this port, PFC frames included; both ends of a link go down together (Fabric).
  // A frame is lost in flight if the link is down when it would arrive.
  void SetLinkDown(bool down);
  bool link_down() const { return (faults_ & kFaultDown) != 0; }
  // Loses each frame this port sends with probability 1 - (1 - ber)^bits, bits being the frame's
  // wire bits (preamble and gap included, as they cross the same wire), drawn from a stream of
  // `seed`. 0: none.
  void SetBitErrorRate(double ber, uint64_t seed);
  // Reports every frame this port's link loses to `observer` as link `link` (nullptr: none).
  void SetLossObserver(LinkLossObserver* observer, uint32_t link);
  const LinkLosses& losses() const { return rare_ != nullptr ? rare_->losses : kNoLosses; }

  // Credit flow control instead of PFC on this port's link (congestion/credit_flow.h): a frame
  // leaves only with the credit for it. Call on both ends once the link is connected (duplex).
  void EnableCredit(const CreditPortSetup& setup);
  // This end's credit state; nullptr on a PFC link.
  CreditPort* credit_port() const { return rare_ != nullptr ? rare_->credit.get() : nullptr; }
  // bytes of frames that came in over this port's link on `prio` left the node's buffer (a switch
  // calls this for a credit link's ingress): their credit goes back to the sender.
  void OnCreditFreed(uint8_t prio, uint32_t bytes) { rare_->credit->OnFreed(prio, bytes); }
  // Time priority q's head frame waited for credit (zero on a PFC link): PausedTime's counterpart.
  Time CreditBlockedTime(int q, Time now) const {
    const CreditPort* c = credit_port();
    return c != nullptr ? c->BlockedTime(static_cast<uint8_t>(q), now) : Time::Zero();
  }

  // Strict priority + DWRR over the queues, `config` indexed by the port's queues (a config by
  // priority goes through QueueSchedulerConfig); unset: strict priority, highest queue first.
  void SetScheduler(const cong::EgressSchedulerConfig* config) { scheduler_config_ = config; }
  // Runs the PFC watchdog on the queues of the priorities in `prios` (the lossless ones). A
  // stormed queue ignores pauses and its packets are flushed to the dequeue observer, which must
  // be set.
  void SetWatchdog(const cong::PfcWatchdogConfig* config, uint8_t prios) {
    watchdog_config_ = config;
    watchdog_mask_ = QueueSlotMask(queue_priorities_, prios);
  }

  // The priorities the port has queues for (bit p: priority p) and the queue of one of them.
  uint8_t queue_priorities() const { return queue_priorities_; }
  QueueId QueueOf(uint8_t prio) const {
    assert(QueueSlotOf(queue_priorities_, prio) >= 0);
    return QueueIdOf(queue_priorities_, prio);
  }

  // Queues m on `queue` and starts transmission if the wire is free. tag goes back to the
  // dequeue observer with the packet (a switch passes the ingress port). Inline: every packet of
  // every hop passes here, and as a call its register saves were a fifth of it.
  void Enqueue(rte_mbuf* m, QueueId queue, uint16_t tag = 0);
  // The same on the queue of priority `prio`, which the port must have.
  void Enqueue(rte_mbuf* m, uint8_t prio, uint16_t tag = 0) { Enqueue(m, QueueOf(prio), tag); }
  // Queues a MAC-control frame ahead of all data; it is never paused nor observed.
  void EnqueueControl(rte_mbuf* m);
  // A PFC frame reached this port's MAC: every class in class_enable pauses for its quanta (0
  // resumes), replacing any pause in progress.
  void OnPauseFrame(Time now, uint8_t class_enable, const std::array<uint16_t, kNumQueues>& quanta);
  // Asks the source for packets if the wire is free (a NIC calls this when it has data again).
  void Kick();

  Rate rate() const { return rate_; }
  Time delay() const { return delay_; }
  // What a queued packet's entry costs in its queue, its chunk's link shared with the chunk's
  // other entries (docs/performance.md, memory).
  static constexpr double QueueBytesPerPacket() {
    return static_cast<double>(kFifoChunkBytes) / ChunkedFifo<Queued>::kItems;
  }
  // By priority q: a priority the port has no queue for never holds anything.
  uint32_t queue_bytes(int q) const {
    const int s = QueueSlotOf(queue_priorities_, q);
    return s < 0 ? 0 : queues()[s].bytes;
  }
  uint32_t max_queue_bytes(int q) const {
    const int s = QueueSlotOf(queue_priorities_, q);
    return s < 0 ? 0 : queues()[s].max_bytes;
  }
  uint32_t queue_packets(int q) const {
    const int s = QueueSlotOf(queue_priorities_, q);
    return s < 0 ? 0 : static_cast<uint32_t>(queues()[s].fifo.size());
  }
  PortCounters counters() const;
  uint64_t tx_packets() const { return tx_packets_; }
  uint64_t tx_wire_bytes() const { return tx_wire_bytes_; }
  bool Paused(int q, Time now) const { return pfc_ != nullptr && pfc_->pause[q].Paused(now); }
  bool Stormed(int q) const {
    const int s = QueueSlotOf(queue_priorities_, q);
    return s >= 0 && (stormed_mask_ & (1u << s)) != 0;
  }
  Time PausedTime(int q, Time now) const {
    return pfc_ != nullptr ? pfc_->pause[q].PausedTime(now) : Time::Zero();
  }
  // counters().queue_byte_ps[q] brought up to now.
  double QueueByteTime(int q, Time now) const {
    const int s = QueueSlotOf(queue_priorities_, q);
    return s < 0 ? 0 : SlotByteTime(s, now);
  }
  // The same by queue, for the per-packet path.
  uint32_t queue_bytes(QueueId q) const { return queues()[q.slot()].bytes; }
  bool Stormed(QueueId q) const { return (stormed_mask_ & (1u << q.slot())) != 0; }

  // Frees every packet still queued (teardown); returns how many. Frames on the wire are the
  // scheduler's pending arrivals: Scheduler::DiscardAll frees them.
  uint64_t DrainAll();

  void OnEvent(uint64_t what) override;
  void Prefetch(uint64_t what, int stage) const override;
  void Discard(uint64_t what) override;
  // Prefetches what Enqueue on `queue` touches.
  void PrefetchEnqueue(QueueId queue) const {
    __builtin_prefetch(this);
    __builtin_prefetch(reinterpret_cast<const char*>(this) + 64);
    __builtin_prefetch(&queues()[queue.slot()]);
  }

 protected:
  friend class EgressPortArray;
  friend class CreditPort;
  // Makes the port's queues, one for each priority in `priorities`, in the StrideBytes after it:
  // the storage must be there.
  EgressPort(Scheduler* sched, Rate rate, Time delay, uint8_t priorities);

 private:
  // Small event args name the event; an arrival's arg is the arriving frame's mbuf address, so
  // the scheduler's prefetch of the next event's arg warms that frame before it is handled. Its
  // low bit (an mbuf is cache-line aligned) tells a frame that came over a full-duplex link to
  // this port (kFromReverse) from one of this port's own frames reaching a one-way peer.
  enum Event : uint64_t { kTxDone = 0, kPauseExpiry = 2, kWatchdog = 3 };
  static constexpr uint64_t kFromReverse = 1;
  static bool IsArrival(uint64_t what) { return what > kWatchdog; }
  static rte_mbuf* FrameOf(uint64_t what) {
    return reinterpret_cast<rte_mbuf*>(what & ~kFromReverse);
  }
  // rate.WholePsPerByte() where it fits 32 bits (any rate from 1,863 b/s up), else 0.
  static uint32_t WholePsPerByteOf(Rate rate) {
    const int64_t ps = rate.WholePsPerByte();
    return ps <= UINT32_MAX ? static_cast<uint32_t>(ps) : 0;
  }
  // A queued packet with its frame length, so serving a queue never touches the (cold) mbuf.
  struct Queued {
    rte_mbuf* m;
    uint32_t frame_bytes;
    uint16_t tag;
    bool collects_int = false;  // HPCC data: a switch port stamps its INT record at dequeue
    uint8_t queue = 0;          // QueueId::code, for the dequeue observer
  };

  // faults_ bits: any of the first two sends a transmission through WireLoses; the third makes
  // a dequeue ask for credit. One byte for the three keeps a PFC port's tests on its hot line.
  static constexpr uint8_t kFaultDown = 1;
  static constexpr uint8_t kFaultLossy = 2;
  static constexpr uint8_t kWireFaults = kFaultDown | kFaultLossy;
  static constexpr uint8_t kCreditFlow = 4;
  // Where a dead link's arrivals go: they are lost at the port they reach.
  class DeadEnd final : public PacketReceiver {
   public:
    void Receive(uint16_t, rte_mbuf* m) override { port_->LoseArrival(m); }
    EgressPort* port_ = nullptr;
  };

  void StartNext();
  void Transmit(rte_mbuf* m, uint32_t frame_bytes);
  [[gnu::cold, gnu::noinline]] void WriteCaptures(Time now, const rte_mbuf* m);
  // A transmission on a faulty wire: true when the frame is lost (and freed).
  [[gnu::cold, gnu::noinline]] bool WireLoses(rte_mbuf* m, uint32_t frame_bytes,
                                              uint32_t wire_bytes);
  [[gnu::cold, gnu::noinline]] void LoseArrival(rte_mbuf* m);
  void Lose(rte_mbuf* m, DropReason reason);
  // The lines of an arriving frame that its receiver reads: the mbuf's first and the headers.
  void PrefetchForReceive(const rte_mbuf* m) const {
    const char* base = reinterpret_cast<const char*>(m);
    __builtin_prefetch(base);
    __builtin_prefetch(base + header_offset_);
  }
  // The next packet to send and its frame length; m is nullptr when there is none.
  Queued Dequeue();
  // Queues that may send now: not empty and not paused.
  uint8_t EligibleMask(Time now);
  // Of `eligible`, the queues whose head frame has its credit; notes the others blocked.
  [[gnu::noinline]] uint8_t CreditEligible(uint8_t eligible, Time now);
  // The source's next frame, asked for only with credit for its largest.
  [[gnu::noinline]] rte_mbuf* PullWithCredit(Time now);
  // A frame of queue `slot` starts now: it spends its credit.
  [[gnu::noinline]] void SpendCredit(int slot, uint32_t frame_bytes, Time now);
  // Queue `slot`'s queue_byte_ps brought up to now.
  double SlotByteTime(int slot, Time now) const {
    const QueueState& s = queues()[slot];
    return s.byte_ps + static_cast<double>(s.bytes) * static_cast<double>((now - s.changed).ps());
  }
  void NoteQueueChange(int slot, Time now) {
    queues()[slot].byte_ps = SlotByteTime(slot, now);
    queues()[slot].changed = now;
  }
  // A MAC-control (PFC) frame arrived over the link of this port's other direction: it pauses
  // this port and ends here.
  void OnMacControlFrame(rte_mbuf* m);
  // Gives queue `slot`'s watchdog its inputs now; on a storm, flushes the queue.
  void UpdateWatchdog(int slot, Time now);
  void UpdateWatchdogs(Time now) {
    for (int s = 0; s < num_queues(); ++s) UpdateWatchdog(s, now);
  }
  int num_queues() const { return std::popcount(unsigned{queue_priorities_}); }

  // One queue's packets and the statistics kept as they come and go: one cache line, so a
  // packet's enqueue and dequeue touch only its own queue's line besides the port's first lines.
  // The packets sit in chunks of a pool that every queue of the thread shares: an empty queue
  // holds none, so a fabric's queue memory follows what is queued at once, not the sum of each
  // queue's own peak.
  struct alignas(64) QueueState {
    ChunkedFifo<Queued> fifo;
    uint32_t bytes = 0;
    uint32_t max_bytes = 0;
    Time changed;                // of `bytes`, last
    double byte_ps = 0;          // integral of `bytes` over time up to `changed`
    uint32_t deficit_bytes = 0;  // DWRR's (cong::EgressScheduler)
  };
  // The queues' deficits as EgressScheduler::Pick takes them.
  struct QueueDeficits {
    QueueState* queues;
    uint32_t& operator[](int q) const { return queues[q].deficit_bytes; }
  };

  // The queues, by slot, right after the object: their address costs no load.
  QueueState* queues() { return std::launder(reinterpret_cast<QueueState*>(this + 1)); }
  const QueueState* queues() const {
    return std::launder(reinterpret_cast<const QueueState*>(this + 1));
  }

  // Hot. The first line (the object is cache-line aligned, its vtable pointer and domain first)
  // is all an arrival reads, the second all that an enqueue, a dequeue and a transmission add;
  // a packet's queue has a line of its own (with its DWRR deficit). The masks are by slot.
  int16_t header_offset_ = sizeof(rte_mbuf) + kPacketPrivBytes;
  uint16_t rx_port_ = 0;
  Scheduler* sched_;
  // Where frames arriving here over a full-duplex link go: this port's own node, as its port
  // rx_port_ (set by the peer's ConnectDuplex).
  PacketReceiver* rx_node_ = nullptr;
  PacketReceiver* peer_ = nullptr;
  EgressPort* reverse_ = nullptr;
  uint32_t peer_domain_ = 0;
  uint16_t peer_port_ = 0;
  uint16_t local_port_ = 0;
  Time busy_until_;

  PacketSource* source_ = nullptr;
  DequeueObserver* observer_ = nullptr;
  const cong::EgressSchedulerConfig* scheduler_config_ = nullptr;
  Time delay_;
  uint64_t tx_packets_ = 0;
  uint64_t tx_wire_bytes_ = 0;
  uint32_t ps_per_byte_;  // serialisation without a divide (WholePsPerByteOf), or 0
  bool tx_event_pending_ = false;
  bool control_pending_ = false;  // control_ is not empty: a dequeue asks here, not the cold FIFO
  uint8_t nonempty_mask_ = 0;
  uint8_t paused_mask_ = 0;  // classes paused at their last change; expiries are cleared lazily
  uint8_t source_slot_ = 0;
  uint8_t watchdog_mask_ = 0;
  uint8_t stormed_mask_ = 0;
  bool capturing_ = false;  // a capture is set: a transmission tests this, not the cold pointer
  uint8_t faults_ = 0;      // kFaultDown | kFaultLossy | kCreditFlow: tested here, not the state
  cong::EgressScheduler scheduler_;

  // Cold: the rate itself (serialisation at a rate of no whole ps per byte, pauses, INT),
  // control frames, pause and watchdog state, touched only when those act.
  Rate rate_;
  Time busy_time_;  // at a rate of no whole ps per byte; else tx_wire_bytes_ x ps_per_byte_
  [[no_unique_address]] Fifo<Queued> control_;  // the next member sits in its tail padding
  uint8_t queue_priorities_;                    // bit p: the port has a queue for priority p
  const cong::PfcWatchdogConfig* watchdog_config_ = nullptr;
  // The pause and watchdog state of the queues, made by the first PFC frame that reaches the
  // port: until then no queue is paused, and a watchdog whose queue was never paused has nothing
  // to time. Most ports of a large fabric are never paused.
  struct PfcState {
    std::array<cong::PauseReceiver, kNumQueues> pause;
    std::array<cong::PfcWatchdog, kNumQueues> watchdog;
    std::array<uint64_t, kNumQueues> pause_frames_received{};
    std::array<uint64_t, kNumQueues> storms_detected{};
  };
  std::unique_ptr<PfcState> pfc_;
  // What few ports use, allocated by the first call that needs it (a large fabric should not
  // carry it in every port): the capture, and link faults and their losses.
  struct RareState {
    PcapngWriter* capture = nullptr;
    uint32_t capture_interface = 0;
    PcapngWriter* capture_in = nullptr;
    uint32_t capture_in_interface = 0;
    uint32_t link = 0;
    LinkLossObserver* loss_observer = nullptr;
    double log_keep_per_bit = 0;  // ln(1 - bit error rate)
    Random bit_errors{0};
    LinkLosses losses;
    PacketReceiver* live_rx_node = nullptr;  // rx_node_ while the link is down
    PacketReceiver* live_peer = nullptr;     // peer_ while the link is down
    DeadEnd dead_end;
    std::unique_ptr<CreditPort> credit;  // on a credit link
  };
  static constexpr LinkLosses kNoLosses{};
  RareState& Rare() {
    if (rare_ == nullptr) rare_ = std::make_unique<RareState>();
    return *rare_;
  }
  std::unique_ptr<RareState> rare_;

  // The compiler's check of the layout above (docs/architecture.md, "Hot state first, a cache
  // line per queue"), in egress_port_layout.cc; a member, so that it may name the private
  // members. Never called.
  static void CheckLayout();
};

[[gnu::always_inline]] inline void EgressPort::Enqueue(rte_mbuf* m, QueueId queue, uint16_t tag) {
  const Time now = sched_->Now();
  const uint32_t frame_bytes = FrameBytes(m);
  const int slot = queue.slot();
  NoteQueueChange(slot, now);
  QueueState& s = queues()[slot];
  s.fifo.push(Queued{m, frame_bytes, tag, CollectsInt(m), queue.code});
  s.bytes += frame_bytes;
  if (s.bytes > s.max_bytes) s.max_bytes = s.bytes;
  const bool was_empty = (nonempty_mask_ & (1u << slot)) == 0;
  nonempty_mask_ |= static_cast<uint8_t>(1u << slot);
  // Unpaused and not stormed, the watchdog has nothing to time: its input change does not matter.
  if (was_empty && (watchdog_mask_ & (paused_mask_ | stormed_mask_) & (1u << slot)) != 0) {
    UpdateWatchdog(slot, now);
  }
  if (!tx_event_pending_) StartNext();
}

// One port with a queue for every priority, outside a fabric's array.
class StandaloneEgressPort final : public EgressPort {
 public:
  StandaloneEgressPort(Scheduler* sched, Rate rate, Time delay)
      : EgressPort(sched, rate, delay, kAllPriorities) {}

 private:
  // Where the base makes its queues (they begin right after it): used through the layout only,
  // which clang's unused-field warning cannot see.
  [[maybe_unused]] alignas(64) std::byte queue_storage_[kNumQueues * 64];
};

}  // namespace fe::dp
