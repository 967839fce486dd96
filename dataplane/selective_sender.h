// The sending side of the out-of-order mode: selective repeat. The sender keeps one bit per PSN
// of what the receiver's SACK blocks reported past its cumulative point, and resends only PSNs
// that are neither, so spraying a QP over paths of different delays costs no resend at all.
//
// What counts as lost: a PSN that was sent before the retransmission deadline was last set and
// is unacknowledged when it passes. The deadline is set one timeout after the cumulative point
// last advanced (or after a send with nothing outstanding), so every PSN sent by then has had a
// whole timeout to be acknowledged, and one sent since (maybe still in flight) is not resent.
// Reordering alone never triggers a timeout: the cumulative point waits, the timer does not fire
// while it keeps advancing, and the window bounds how far the sender runs ahead of it.
//
// Fast resend: once the receiver reports `resend_threshold` PSNs past the first unacknowledged
// one (as a TCP sender takes a segment for lost once DupThresh segments above it are SACKed,
// RFC 6675), that PSN is resent at once, without waiting for the timeout; once per hole. The
// threshold must exceed the fabric's reordering depth (packets that overtake another), or a
// reordered PSN is resent needlessly.
#pragma once

#include <cstdint>
#include <vector>

#include "dataplane/message.h"
#include "dataplane/psn_window.h"
#include "dataplane/sack.h"

namespace fe::dp {

class SelectiveSender {
 public:
  // resend_threshold: PSNs reported past a hole that make it lost (0: never, only the timeout).
  SelectiveSender(uint32_t window_packets, uint32_t resend_threshold)
      : windows_(window_packets), resend_threshold_(resend_threshold) {}

  // A packet of msg went out (next_psn already moved past it): the QP has a window while it has
  // packets out, and its next packet skips what the receiver holds.
  void OnSent(SenderState& msg);
  // msg's retransmission deadline was set now.
  void OnDeadlineSet(const SenderState& msg) {
    resend_[msg.sack_window].overdue_end = msg.max_psn_sent;
  }
  // An ACK: every PSN below `acked` arrived, and `sack` (nullptr: none) tells of 32 more.
  // Returns whether the cumulative point advanced.
  bool OnAck(SenderState& msg, uint32_t acked, const SackBlock* sack, uint32_t packets_total);
  // After an ACK: if the first unacknowledged PSN is lost by the threshold (and not resent for
  // that already, nor a timeout's resend pass under way), the QP resends it next. Returns whether
  // it does.
  bool FastResend(SenderState& msg);
  // The deadline passed: the QP resends what was overdue and unacknowledged, then goes on.
  void OnTimeout(SenderState& msg);
  // The message was given up: its window goes back to the pool.
  void Release(SenderState& msg);
  // Packets sent and neither acknowledged nor selectively acknowledged: what the network holds
  // (or lost), the in-flight count a window-based congestion control limits.
  uint32_t InFlightPackets(const SenderState& msg) const {
    const uint32_t sacked = msg.sack_window == kNoWindow ? 0 : windows_.set_bits(msg.sack_window);
    return msg.max_psn_sent - msg.acked_packets - sacked;
  }
  uint32_t window_packets() const { return windows_.window_packets(); }

 private:
  struct Resend {
    uint32_t overdue_end = 0;  // PSNs below it were sent when the deadline was set
    uint32_t end = 0;          // a resend pass covers the PSNs below this
    uint32_t fast_resent = 0;  // 1 + the last PSN fast-resent; 0: none
  };
  // Moves next_psn past what needs no sending: acknowledged PSNs, and, past the resend pass's
  // end, PSNs already sent.
  void Skip(SenderState& msg) const;

  PsnWindows windows_;
  uint32_t resend_threshold_;
  std::vector<Resend> resend_;  // by window
};

}  // namespace fe::dp
