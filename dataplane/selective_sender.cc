#include "dataplane/selective_sender.h"

#include <algorithm>

namespace fe::dp {

void SelectiveSender::OnSent(SenderState& msg) {
  if (msg.sack_window == kNoWindow) {
    msg.sack_window = windows_.Acquire();
    if (resend_.size() <= msg.sack_window) resend_.resize(msg.sack_window + 1);
    resend_[msg.sack_window] = Resend{};
  }
  Skip(msg);
}

bool SelectiveSender::OnAck(SenderState& msg, uint32_t acked, const SackBlock* sack,
                            uint32_t packets_total) {
  const uint32_t w = msg.sack_window;
  const bool progress = acked > msg.acked_packets;
  if (w == kNoWindow) return progress;  // nothing of it out: a late ACK after completion
  if (progress) {
    // The bits the cumulative point passes would otherwise stand for PSNs a window later.
    const uint32_t clear_end = std::min(acked, msg.acked_packets + windows_.window_packets());
    for (uint32_t p = msg.acked_packets; p < clear_end; ++p) windows_.Clear(w, p);
    msg.acked_packets = acked;
  }
  if (acked == packets_total) {
    Release(msg);
    msg.next_psn = std::max(msg.next_psn, acked);
    return progress;
  }
  if (sack != nullptr) {
    uint64_t bits = sack->received;
    // Below the cumulative point, and past what was sent or the window, bits add nothing.
    if (msg.acked_packets > sack->base_psn) {
      const uint32_t below = msg.acked_packets - sack->base_psn;
      bits = below >= 64 ? 0 : bits & ~((uint64_t{1} << below) - 1);
    }
    const uint32_t end = std::min(msg.max_psn_sent, msg.acked_packets + windows_.window_packets());
    while (bits != 0) {
      const uint32_t p = sack->base_psn + static_cast<uint32_t>(__builtin_ctzll(bits));
      bits &= bits - 1;
      if (p >= end) break;
      windows_.Set(w, p);
    }
  }
  msg.next_psn = std::max(msg.next_psn, msg.acked_packets);
  Skip(msg);
  return progress;
}

bool SelectiveSender::FastResend(SenderState& msg) {
  const uint32_t w = msg.sack_window;
  if (w == kNoWindow || resend_threshold_ == 0 || windows_.set_bits(w) < resend_threshold_) {
    return false;
  }
  Resend& r = resend_[w];
  const uint32_t hole = msg.acked_packets;
  if (r.fast_resent == hole + 1 || msg.next_psn < r.end) return false;
  r.fast_resent = hole + 1;
  // A pass of one PSN: after it, Skip moves next_psn back to new data.
  r.end = hole + 1;
  msg.next_psn = hole;
  return true;
}

void SelectiveSender::Release(SenderState& msg) {
  if (msg.sack_window == kNoWindow) return;
  windows_.Release(msg.sack_window);
  msg.sack_window = kNoWindow;
}

void SelectiveSender::OnTimeout(SenderState& msg) {
  if (msg.sack_window == kNoWindow) return;
  Resend& r = resend_[msg.sack_window];
  r.end = r.overdue_end;
  msg.next_psn = msg.acked_packets;
  Skip(msg);
}

void SelectiveSender::Skip(SenderState& msg) const {
  if (msg.sack_window == kNoWindow) return;
  const Resend& r = resend_[msg.sack_window];
  uint32_t p = msg.next_psn;
  while (p < msg.max_psn_sent) {
    if (p >= r.end) {
      p = msg.max_psn_sent;
      break;
    }
    if (!windows_.Test(msg.sack_window, p)) break;
    ++p;
  }
  msg.next_psn = p;
}

}  // namespace fe::dp
