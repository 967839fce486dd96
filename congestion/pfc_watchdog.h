// PFC watchdog of one egress (port, priority), as switches run it (SONiC pfcwd, Juniper
// pfc-watchdog): a lossless queue that stays paused while holding packets for detection_time is
// declared stormed; while stormed the switch ignores pauses on it and drops its lossless traffic
// (counted as a watchdog drop). Once no pause has been in force for restoration_time the queue
// returns to normal.
//
// Lazy and pure: call Update at every change of either input and at NextCheck(); between those
// moments nothing can change, so declarations happen exactly at their deadlines.
#pragma once

#include <cstdint>

#include "core/status.h"
#include "core/units.h"

namespace fe::cong {

struct PfcWatchdogParams {
  // Defaults of SONiC and Juniper: 200 ms each.
  Time detection_time = Time::FromMs(200);
  Time restoration_time = Time::FromMs(200);
};

struct PfcWatchdogConfig {
  Time detection_time;
  Time restoration_time;
};

// Refuses non-positive times, naming the field.
StatusOr<PfcWatchdogConfig> Compile(const PfcWatchdogParams& params);

enum class WatchdogTransition : uint8_t { kNone, kStormDetected, kRestored };

class PfcWatchdog {
 public:
  // paused: a received pause is in force on the queue (PauseReceiver::Paused(now), tracked even
  // while the storm makes the switch ignore it). has_packets: the queue is not empty.
  WatchdogTransition Update(const PfcWatchdogConfig& config, Time now, bool paused,
                            bool has_packets);
  bool stormed() const { return stormed_; }
  // When a transition falls due if the inputs stay as last given; Infinite if none can.
  Time NextCheck(const PfcWatchdogConfig& config) const;

 private:
  bool stormed_ = false;
  // Since when the condition that leads out of the current state has held (normal: paused with
  // packets; stormed: not paused); unset when it does not hold.
  bool timing_ = false;
  Time since_;
};

}  // namespace fe::cong
