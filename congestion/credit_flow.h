// Credit-based link-level flow control, as InfiniBand does it (IBA Vol. 1, 7.9): per virtual
// lane (here: per priority) the receiver reserves a buffer for its sender, the sender never
// transmits a packet the receiver has no room for, and the receiver advertises its room as an
// absolute credit limit, never as an increment, so that a lost advertisement is made good by the
// next one. The counts are IB's in bytes and 64 bits wide (IB counts 64-byte blocks modulo 4096):
//   sender:   FCTBS, total bytes sent; FCCL, the limit last heard from the receiver;
//             it may send a packet of b bytes while FCTBS + b <= FCCL.
//   receiver: FCCL = bytes freed in total + its buffer, freed meaning forwarded, consumed or
//             dropped after arrival; a resync (the sender's FCTBS reaching the receiver) counts
//             every byte sent that the receiver does not hold as freed, which recovers frames
//             lost on the wire and drops the receiver never reported (IB's ABR := FCTBS).
// Pure state: the dataplane (dataplane/credit_port) moves the advertisements and times them.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/units.h"

namespace fe::cong {

// One link class's credit parameters, as the scenario gives them (docs/switch-buffers.md).
struct CreditParams {
  // Buffer each receiver reserves per priority for the sender at the other end; 0: derived from
  // the link (DefaultCreditBufferBytes).
  int64_t buffer_bytes = 0;
  // From the receiver freeing buffer to its advertisement leaving (processing, and waiting for a
  // frame already on the reverse wire); the link's propagation comes on top.
  Time update_delay = Time::FromNs(200);
  // A sender blocked for credit this long asks the receiver to resync (IB sends flow-control
  // packets at least every 65,536 symbol times, about 2.6 us on a 25 Gbaud lane).
  Time resync_period = Time::FromNs(2600);
  // Each advertisement is lost with this probability (a fault to test recovery with); [0, 1).
  double update_loss_probability = 0;
};

// The smallest buffer that lets one sender keep its link busy: a credit comes back one credit
// loop after its frame started (the frame's serialisation, propagation both ways and the update
// delay), and a frame needs its whole size in credit, so the loop's bytes at the link rate plus
// two of the largest frames (one being sent, one waiting for its credit).
int64_t DefaultCreditBufferBytes(Rate rate, Time delay, Time update_delay,
                                 uint32_t max_frame_bytes);

// The sender's side of one priority.
struct CreditSender {
  int64_t sent_bytes = 0;   // FCTBS
  int64_t limit_bytes = 0;  // FCCL as last heard

  int64_t available_bytes() const { return limit_bytes - sent_bytes; }
  bool CanSend(uint32_t frame_bytes) const { return available_bytes() >= frame_bytes; }
  // An advertisement arrived; a stale one (overtaken by a later, larger one) changes nothing.
  // True when the limit rose.
  bool OnAdvertisement(int64_t limit_bytes_advertised) {
    if (limit_bytes_advertised <= limit_bytes) return false;
    limit_bytes = limit_bytes_advertised;
    return true;
  }
};

// The receiver's side of one priority.
struct CreditReceiver {
  int64_t freed_bytes = 0;

  int64_t Limit(int64_t buffer_bytes) const { return freed_bytes + buffer_bytes; }
  // The sender's FCTBS arrived behind every frame it counts, while the receiver holds
  // held_bytes of them: everything else was freed, whether it was reported or not.
  void OnResync(int64_t sender_sent_bytes, int64_t held_bytes) {
    freed_bytes = std::max(freed_bytes, sender_sent_bytes - held_bytes);
  }
};

}  // namespace fe::cong
