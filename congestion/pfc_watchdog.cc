#include "congestion/pfc_watchdog.h"

#include <string>

namespace fe::cong {

StatusOr<PfcWatchdogConfig> Compile(const PfcWatchdogParams& params) {
  if (params.detection_time <= Time::Zero()) {
    return Status::Error("detection_time (" + std::to_string(params.detection_time.ps()) +
                         " ps) must be > 0");
  }
  if (params.restoration_time <= Time::Zero()) {
    return Status::Error("restoration_time (" + std::to_string(params.restoration_time.ps()) +
                         " ps) must be > 0");
  }
  return PfcWatchdogConfig{params.detection_time, params.restoration_time};
}

WatchdogTransition PfcWatchdog::Update(const PfcWatchdogConfig& config, Time now, bool paused,
                                       bool has_packets) {
  const bool leaving = stormed_ ? !paused : (paused && has_packets);
  if (!leaving) {
    timing_ = false;
    return WatchdogTransition::kNone;
  }
  if (!timing_) {
    timing_ = true;
    since_ = now;
  }
  const Time hold = stormed_ ? config.restoration_time : config.detection_time;
  if (now - since_ < hold) return WatchdogTransition::kNone;
  stormed_ = !stormed_;
  // A fresh storm is still paused, so the restoration clock waits for the pause to end.
  timing_ = false;
  return stormed_ ? WatchdogTransition::kStormDetected : WatchdogTransition::kRestored;
}

Time PfcWatchdog::NextCheck(const PfcWatchdogConfig& config) const {
  if (!timing_) return Time::Infinite();
  return since_ + (stormed_ ? config.restoration_time : config.detection_time);
}

}  // namespace fe::cong
