// Settings and timers, not the decision: BufferAdmission::PfcCheck (congestion/buffer_admission.h)
// decides XOFF/XON, dataplane/switch.cc sends the pause frames and dataplane/egress_port.cc obeys
// those it receives.
#include "congestion/pfc_config.h"

#include <cassert>
#include <cmath>
#include <string>

namespace fe::cong {
namespace {

std::string Num(int64_t v) { return std::to_string(v); }

// Bytes a link of `rate` carries in `duration`, rounded up: headroom must never fall short.
int64_t CeilBytesIn(Rate rate, Time duration) {
  const __int128 bits_x_ps = static_cast<__int128>(duration.ps()) * rate.bps();
  constexpr __int128 kBitsPerByteXPsPerS = 8 * static_cast<__int128>(1000000000000LL);
  return static_cast<int64_t>((bits_x_ps + kBitsPerByteXPsPerS - 1) / kBitsPerByteXPsPerS);
}

}  // namespace

StatusOr<PfcThresholdConfig> Compile(const PfcThresholdParams& params) {
  PfcThresholdConfig config;
  if (params.xoff_bytes) {
    if (*params.xoff_bytes < 0)
      return Status::Error("xoff_bytes (" + Num(*params.xoff_bytes) + ") < 0");
    config.dynamic_xoff = false;
    config.xoff_bytes = *params.xoff_bytes;
  }
  if (params.xon_bytes) {
    if (!params.xoff_bytes) {
      return Status::Error(
          "xon_bytes (" + Num(*params.xon_bytes) +
          ") needs a static xoff_bytes (a fixed XON could sit above a dynamic XOFF)");
    }
    if (*params.xon_bytes < 0)
      return Status::Error("xon_bytes (" + Num(*params.xon_bytes) + ") < 0");
    if (*params.xon_bytes > *params.xoff_bytes) {
      return Status::Error("xon_bytes (" + Num(*params.xon_bytes) + ") > xoff_bytes (" +
                           Num(*params.xoff_bytes) + ")");
    }
    config.static_xon = true;
    config.xon_bytes = *params.xon_bytes;
  }
  if (params.xon_offset_bytes < 0) {
    return Status::Error("xon_offset_bytes (" + Num(params.xon_offset_bytes) + ") < 0");
  }
  config.xon_offset_bytes = params.xon_offset_bytes;
  return config;
}

StatusOr<int64_t> ComputeHeadroomBytes(const HeadroomParams& params) {
  if (params.link_rate.bps() <= 0) {
    return Status::Error("link_rate (" + Num(params.link_rate.bps()) + " bps) must be > 0");
  }
  if (!(params.cable_length_m >= 0.0 && std::isfinite(params.cable_length_m))) {
    return Status::Error("cable_length_m (" + std::to_string(params.cable_length_m) +
                         ") must be >= 0");
  }
  if (params.propagation_per_m < Time::Zero()) {
    return Status::Error("propagation_per_m (" + Num(params.propagation_per_m.ps()) + " ps) < 0");
  }
  if (params.max_frame_bytes < 64) {
    return Status::Error("max_frame_bytes (" + Num(params.max_frame_bytes) + ") < 64");
  }
  if (params.peer_response_time && *params.peer_response_time < Time::Zero()) {
    return Status::Error("peer_response_time (" + Num(params.peer_response_time->ps()) +
                         " ps) < 0");
  }
  const Time cable_delay = Time::FromPs(
      std::llround(params.cable_length_m * static_cast<double>(params.propagation_per_m.ps())));
  const int64_t cable_bytes = CeilBytesIn(params.link_rate, cable_delay);
  const int64_t response_bytes = params.peer_response_time
                                     ? CeilBytesIn(params.link_rate, *params.peer_response_time)
                                     : kDefaultResponseQuanta * kPauseQuantumBytes;
  return 3 * params.max_frame_bytes + kPauseFrameWireBytes + 2 * cable_bytes + response_bytes;
}

StatusOr<PauseSenderConfig> Compile(const PauseSenderParams& params, Rate link_rate) {
  if (params.quanta == 0) return Status::Error("quanta (0) would resume, not pause");
  if (!(params.refresh_fraction > 0.0 && params.refresh_fraction < 1.0)) {
    return Status::Error("refresh_fraction (" + std::to_string(params.refresh_fraction) +
                         ") outside (0, 1)");
  }
  if (link_rate.bps() <= 0) {
    return Status::Error("link_rate (" + Num(link_rate.bps()) + " bps) must be > 0");
  }
  PauseSenderConfig config;
  config.quanta = params.quanta;
  config.pause_duration = PauseDuration(params.quanta, link_rate);
  config.refresh_period = Time::FromPs(static_cast<int64_t>(
      std::floor(static_cast<double>(config.pause_duration.ps()) * params.refresh_fraction)));
  if (config.refresh_period <= Time::Zero()) {
    return Status::Error("refresh_fraction (" + std::to_string(params.refresh_fraction) +
                         ") of a " + Num(config.pause_duration.ps()) + " ps pause rounds to 0 ps");
  }
  return config;
}

void PauseReceiver::OnPauseFrame(Time now, uint16_t quanta, Rate rate) {
  assert(now >= stretch_start_);
  if (now >= paused_until_) {  // not paused: the previous stretch is over, a new one starts
    closed_total_ += paused_until_ - stretch_start_;
    stretch_start_ = now;
  }
  paused_until_ = now + PauseDuration(quanta, rate);
}

Time PauseReceiver::PausedTime(Time now) const {
  assert(now >= stretch_start_);
  return closed_total_ + ((now < paused_until_ ? now : paused_until_) - stretch_start_);
}

}  // namespace fe::cong
