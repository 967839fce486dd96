// The credit flow control of one end of a credit-based link (congestion/credit_flow.h has the
// rules): as a sender, the credit its egress port may spend per priority and the time it spent
// blocked for credit; as a receiver, the advertisements it sends back as its buffer frees. An
// advertisement crosses the link after the update delay and the propagation; a sender blocked
// for a resync period asks the receiver to resync, which recovers lost advertisements.
//
// Only a credit link's ports have one (EgressPort::EnableCredit): a PFC link pays nothing.
#pragma once

#include <array>
#include <cstdint>

#include "congestion/buffer_admission.h"
#include "congestion/credit_flow.h"
#include "core/random.h"
#include "core/scheduler.h"
#include "core/units.h"

namespace fe::dp {

class EgressPort;

inline constexpr int kCreditPriorities = 8;

struct CreditCounters {
  uint64_t updates_sent = 0;  // advertisements that left for the sender, lost ones included
  uint64_t updates_lost = 0;  // of those, lost on the way (the loss-probability fault)
  uint64_t resyncs = 0;       // resync requests sent while blocked for credit
  // Frames sent without the credit for them: the invariant "credit never goes negative", kept as
  // a count so that release builds check it too. Always 0.
  uint64_t overdrafts = 0;
};

// One end of a credit link.
struct CreditPortSetup {
  cong::CreditParams params;  // buffer_bytes already resolved (never 0)
  uint64_t seed = 0;          // the loss draws of the advertisements this end sends
  // The largest frame the port's source (a NIC) hands over: it is asked only with that much
  // credit, as a frame it pulls must go.
  uint32_t max_source_frame_bytes = 0;
  // The peer consumes frames as they arrive (a NIC) and holds no buffer, so this end times the
  // advertisement each frame earns itself, from the frame's arrival.
  bool peer_consumes_on_arrival = false;
  // This end as a receiver at a switch: its MMU and this port's index there, whose ingress
  // accounting is what this end holds of the sender's frames. nullptr at a NIC.
  const cong::BufferAdmission* mmu = nullptr;
  uint16_t mmu_port = 0;
};

class CreditPort final : public EventHandler {
 public:
  // `port` is the egress port this end sends with; its domain is this object's.
  CreditPort(EgressPort* port, Scheduler* sched, const CreditPortSetup& setup);

  // Sender side.
  bool CanSend(uint8_t prio, uint32_t frame_bytes) const {
    return sender_[prio].CanSend(frame_bytes);
  }
  // A frame of `prio` starts now, its serialisation taking `serialisation`.
  void OnSend(uint8_t prio, uint32_t frame_bytes, Time now, Time serialisation);
  // The head frame of `prio` waits for credit (or, unblocked, may go).
  void NoteBlocked(uint8_t prio, Time now);
  void NoteUnblocked(uint8_t prio, Time now) {
    if ((blocked_mask_ >> prio) & 1) Unblock(prio, now);
  }
  uint32_t max_source_frame_bytes() const { return max_source_frame_bytes_; }

  // Receiver side: `bytes` of the sender's frames on `prio` left this end's buffer.
  void OnFreed(uint8_t prio, uint32_t bytes);

  void OnEvent(uint64_t what) override;

  const CreditCounters& counters() const { return counters_; }
  int64_t available_bytes(uint8_t prio) const { return sender_[prio].available_bytes(); }
  int64_t buffer_bytes() const { return params_.buffer_bytes; }
  // Time the priority's head frame waited for credit, up to now.
  Time BlockedTime(uint8_t prio, Time now) const {
    return blocked_time_[prio] +
           (((blocked_mask_ >> prio) & 1) != 0 ? now - blocked_since_[prio] : Time::Zero());
  }

 private:
  enum Kind : uint64_t { kAdvertisement = 0, kResyncRequest = 1, kResyncTimer = 2 };
  static constexpr int kKindBits = 2;
  static constexpr int kPrioBits = 3;
  static uint64_t Encode(Kind kind, uint8_t prio, int64_t bytes) {
    return (static_cast<uint64_t>(bytes) << (kKindBits + kPrioBits)) |
           (uint64_t{prio} << kKindBits) | kind;
  }

  void Unblock(uint8_t prio, Time now);
  // Sends `limit` for `prio` towards the sender at the other end, leaving at `leaves`: it
  // reaches it after the update delay and the propagation, unless the loss fault takes it.
  void Advertise(uint8_t prio, int64_t limit, Time leaves, CreditPort* to);
  CreditPort* Peer() const;

  EgressPort* port_;
  Scheduler* sched_;
  cong::CreditParams params_;
  uint32_t max_source_frame_bytes_;
  bool peer_consumes_on_arrival_;
  const cong::BufferAdmission* mmu_;
  uint16_t mmu_port_;
  Random loss_;
  std::array<cong::CreditSender, kCreditPriorities> sender_{};
  std::array<cong::CreditReceiver, kCreditPriorities> receiver_{};
  uint8_t blocked_mask_ = 0;
  bool resync_armed_ = false;
  std::array<Time, kCreditPriorities> blocked_since_{};
  std::array<Time, kCreditPriorities> blocked_time_{};
  CreditCounters counters_;
};

}  // namespace fe::dp
