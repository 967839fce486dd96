#include "dataplane/credit_port.h"

#include <algorithm>
#include <cassert>

#include "dataplane/egress_port.h"

namespace fe::dp {

CreditPort::CreditPort(EgressPort* port, Scheduler* sched, const CreditPortSetup& setup)
    : port_(port),
      sched_(sched),
      params_(setup.params),
      max_source_frame_bytes_(setup.max_source_frame_bytes),
      peer_consumes_on_arrival_(setup.peer_consumes_on_arrival),
      mmu_(setup.mmu),
      mmu_port_(setup.mmu_port),
      loss_(setup.seed) {
  set_event_domain(port->event_domain());
  // Link-up: each receiver has advertised its whole buffer.
  for (cong::CreditSender& s : sender_) s.limit_bytes = params_.buffer_bytes;
}

CreditPort* CreditPort::Peer() const {
  return port_->reverse_ != nullptr ? port_->reverse_->credit_port() : nullptr;
}

void CreditPort::OnSend(uint8_t prio, uint32_t frame_bytes, Time now, Time serialisation) {
  cong::CreditSender& s = sender_[prio];
  if (!s.CanSend(frame_bytes)) {
    assert(false && "a frame left without its credit");
    ++counters_.overdrafts;
  }
  s.sent_bytes += frame_bytes;
  // A NIC frees the frame's buffer as it arrives: its advertisement leaves then.
  if (peer_consumes_on_arrival_) {
    Advertise(prio, s.sent_bytes + params_.buffer_bytes, now + serialisation + port_->delay(),
              this);
  }
}

void CreditPort::NoteBlocked(uint8_t prio, Time now) {
  if ((blocked_mask_ >> prio) & 1) return;
  blocked_mask_ |= static_cast<uint8_t>(1u << prio);
  blocked_since_[prio] = now;
  if (!resync_armed_) {
    resync_armed_ = true;
    sched_->At(now + params_.resync_period, this, kResyncTimer);
  }
}

void CreditPort::Unblock(uint8_t prio, Time now) {
  blocked_mask_ &= static_cast<uint8_t>(~(1u << prio));
  blocked_time_[prio] += now - blocked_since_[prio];
}

void CreditPort::OnFreed(uint8_t prio, uint32_t bytes) {
  // A real host attached to the link makes it one-way: nothing here spends credit towards it.
  if (Peer() == nullptr) return;
  cong::CreditReceiver& r = receiver_[prio];
  r.freed_bytes += bytes;
  Advertise(prio, r.Limit(params_.buffer_bytes), sched_->Now(), Peer());
}

void CreditPort::Advertise(uint8_t prio, int64_t limit, Time leaves, CreditPort* to) {
  ++counters_.updates_sent;
  if (params_.update_loss_probability > 0 &&
      loss_.NextUnitDouble() < params_.update_loss_probability) {
    ++counters_.updates_lost;
    return;
  }
  // The advertisement travels back over this port's link, whose far end `to` sends on it.
  sched_->AtIn(to->event_domain(), leaves + params_.update_delay + port_->delay(), to,
               Encode(kAdvertisement, prio, limit));
}

void CreditPort::OnEvent(uint64_t what) {
  const auto kind = static_cast<Kind>(what & ((1u << kKindBits) - 1));
  const auto prio = static_cast<uint8_t>((what >> kKindBits) & ((1u << kPrioBits) - 1));
  const auto bytes = static_cast<int64_t>(what >> (kKindBits + kPrioBits));
  const Time now = sched_->Now();
  switch (kind) {
    case kAdvertisement:
      if (sender_[prio].OnAdvertisement(bytes)) port_->Kick();
      return;
    case kResyncRequest: {
      // Every frame the request counts arrived before it (it left behind them): what this end
      // does not hold of them was freed.
      const int64_t held = mmu_ == nullptr ? 0
                                           : mmu_->pg(mmu_port_, prio).bytes +
                                                 mmu_->pg(mmu_port_, prio).headroom_bytes;
      cong::CreditReceiver& r = receiver_[prio];
      r.OnResync(bytes, held);
      Advertise(prio, r.Limit(params_.buffer_bytes), now, Peer());
      return;
    }
    case kResyncTimer: {
      resync_armed_ = false;
      // A priority blocked for a whole period sends its count; the others are looked at again
      // when their period is up.
      Time next = Time::Infinite();
      bool asked = false;
      for (unsigned m = blocked_mask_; m != 0; m &= m - 1) {
        const auto p = static_cast<uint8_t>(__builtin_ctz(m));
        if (now - blocked_since_[p] < params_.resync_period) {
          next = std::min(next, blocked_since_[p] + params_.resync_period);
          continue;
        }
        asked = true;
        // IB's FCTBS, sent like a frame: behind the one on the wire, then across the link.
        const Time leaves = std::max(now, port_->busy_until_);
        CreditPort* peer = Peer();
        sched_->AtIn(peer->event_domain(), leaves + port_->delay(), peer,
                     Encode(kResyncRequest, p, sender_[p].sent_bytes));
        next = std::min(next, now + params_.resync_period);
      }
      if (asked) ++counters_.resyncs;
      if (next != Time::Infinite()) {
        resync_armed_ = true;
        sched_->At(next, this, kResyncTimer);
      }
      return;
    }
  }
}

}  // namespace fe::dp
