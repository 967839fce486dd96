#include "control/run/progress_watch.h"

#include <vector>

#include "control/run/stall_report.h"

namespace fe::control {

namespace {
// Far beyond the retry_count + 1 (at most 8) timeouts after which a sender gives a message up:
// the span catches what the retries do not (a message whose resends are never sent, say).
constexpr int64_t kDefaultTimeoutsWithoutProgress = 100;
}  // namespace

Time NoProgressTimeout(const fabric_emu::Scenario& scenario) {
  if (scenario.run().no_progress_timeout_ns() > 0) {
    return Time::FromNs(scenario.run().no_progress_timeout_ns());
  }
  return Time::FromNs(scenario.nic().transport().retransmit_timeout_ns()) *
         kDefaultTimeoutsWithoutProgress;
}

std::optional<std::string> ProgressWatch::Check(Time reached) {
  const dp::FabricTotals t = e_->fabric->Totals();
  const dp::MessageTable& m = e_->fabric->messages();
  const uint32_t mtu = e_->fabric->nic(0).config().mtu_payload_bytes;
  if (t.nics.retry_exceeded > 0) {
    std::vector<uint32_t> given_up;
    for (uint32_t id = 0; id < m.size(); ++id) {
      if (m.sender[id].retries_exhausted) given_up.push_back(id);
    }
    return DescribeStall(*e_,
                         std::to_string(given_up.size()) + " flows given up after " +
                             std::to_string(e_->fabric->nic(0).config().retry_count + 1) +
                             " retransmission timeouts in a row without an acknowledgement "
                             "(nic.transport.retry_count)",
                         given_up, mtu);
  }
  const uint64_t bytes = t.nics.payload_bytes_received;
  const bool delivered = bytes != last_bytes_;
  last_bytes_ = bytes;
  // Nothing to deliver (the next message starts later): waiting is not a stall.
  // Counted by the NICs: a walk of the messages here, after every slice, would cost more as the
  // run finishes more of them, until it took as long as the slice.
  if (e_->fabric->MessagesInProgress() == 0) {
    idle_ = true;
    return std::nullopt;
  }
  if (delivered || idle_) {
    idle_ = false;
    last_progress_ = e_->sched.Now();
    return std::nullopt;
  }
  if (reached < deadline()) return std::nullopt;
  std::vector<uint32_t> stuck;
  for (uint32_t id = 0; id < m.size(); ++id) {
    if (m.in_progress(id)) stuck.push_back(id);
  }
  return DescribeStall(*e_,
                       "no payload byte delivered from simulated " +
                           std::to_string(last_progress_.ns()) + " ns to " +
                           std::to_string(reached.ns()) +
                           " ns while flows were in progress (run.no_progress_timeout_ns)",
                       stuck, mtu);
}

}  // namespace fe::control
