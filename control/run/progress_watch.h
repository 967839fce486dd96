// Stops a software run that makes no progress: a message given up after its sender's retries ran
// out (nic.transport.retry_count), or no payload byte delivered for run.no_progress_timeout_ns
// of simulated time while some message is in progress. Without it a scenario whose fabric drops
// every data packet would retransmit for ever.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "control/emulation/emulation.h"
#include "core/units.h"
#include "proto/scenario.pb.h"

namespace fe::control {

// The scenario's no-progress span: run.no_progress_timeout_ns, or by default 100 retransmission
// timeouts, far beyond the retry_count + 1 timeouts after which a sender gives up.
Time NoProgressTimeout(const fabric_emu::Scenario& scenario);

class ProgressWatch {
 public:
  ProgressWatch(const Emulation* e, Time timeout) : e_(e), timeout_(timeout) {}

  // The run must not go past this simulated time without checking in (Check). Infinite while
  // no message is in progress: a run waiting for a later start checks in between slices only.
  Time deadline() const { return idle_ ? Time::Infinite() : last_progress_ + timeout_; }
  // After a slice of the run. `reached`: how far simulated time has been run (the slice's end
  // when the next event lies beyond it, else the time of the last event run). Returns why the run
  // must stop, naming the flows, where their packets are dropped and the setting behind it.
  std::optional<std::string> Check(Time reached);

 private:
  const Emulation* e_;
  Time timeout_;
  Time last_progress_ = Time::Zero();
  uint64_t last_bytes_ = 0;
  bool idle_ = false;  // at the last check no message was in progress
};

}  // namespace fe::control
