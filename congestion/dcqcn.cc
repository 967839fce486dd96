#include "congestion/dcqcn.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace fe::cong {
namespace {

Status FieldError(const char* field, const std::string& why) {
  return Status::Error(std::string("dcqcn.") + field + ": " + why);
}

// Rounds up, so that R_C reaches R_T exactly instead of stalling 1 b/s below it (the floor of
// the midpoint of R_T - 1 and R_T is R_T - 1): only a QP back at line rate can disarm its timer.
int64_t MidpointRoundedUp(int64_t low, int64_t high) { return low + (high - low + 1) / 2; }

void Increase(const DcqcnConfig& config, DcqcnState& state, DcqcnIncreaseCause cause) {
  const uint32_t f = config.fast_recovery_steps;
  const uint32_t most = std::max(state.timer_stage, state.byte_stage);
  const uint32_t least = std::min(state.timer_stage, state.byte_stage);
  int64_t target_bps = state.target_rate.bps();
  if (most >= f) {  // fast recovery is over: the target itself moves up
    const int64_t step_bps = least < f ? config.additive_increase_bps
                                       : int64_t{least - f + 1} * config.hyper_increase_bps;
    target_bps = std::min(config.line_rate_bps, target_bps + step_bps);
  }
  state.target_rate = Rate::FromBps(target_bps);
  state.current_rate = Rate::FromBps(MidpointRoundedUp(state.current_rate.bps(), target_bps));
  ++(cause == DcqcnIncreaseCause::kTimer ? state.timer_stage : state.byte_stage);
  state.last_increase = cause;
  if (state.current_rate.bps() == config.line_rate_bps) {  // recovered: nothing left to time
    state.next_increase = Time::Infinite();
    state.bytes_since_increase = 0;
  }
}

void Cut(const DcqcnConfig& config, DcqcnState& state, Time at) {
  const bool clamp_target = config.clamp_target_rate ||
                            state.last_increase == DcqcnIncreaseCause::kBytes ||
                            (config.clamp_target_rate_after_time_inc &&
                             state.last_increase == DcqcnIncreaseCause::kTimer);
  if (clamp_target) state.target_rate = state.current_rate;
  const double kept = std::max(1.0 - AlphaAt(config, state, at) / 2, config.min_decrease_factor);
  const auto cut_bps = static_cast<int64_t>(static_cast<double>(state.current_rate.bps()) * kept);
  state.current_rate = Rate::FromBps(std::max(config.min_rate_bps, cut_bps));
  state.timer_stage = 0;
  state.byte_stage = 0;
  state.bytes_since_increase = 0;
  state.last_increase = DcqcnIncreaseCause::kNone;
  state.last_cut = at;
  state.pending_cut = Time::Infinite();
  state.next_increase = at + config.increase_timer_period;
}

bool MonitorPeriodOver(const DcqcnConfig& config, const DcqcnState& state, Time now) {
  return state.last_cut == Time::Infinite() ||
         now - state.last_cut >= config.rate_reduce_monitor_period;
}

}  // namespace

DcqcnParams DcqcnParams::NvidiaConnectX() {
  DcqcnParams p;
  p.min_rate = Rate::FromMbps(1);
  p.g = (1024.0 - 1019.0) / 1024.0;  // dce_tcp_g = 1019 weighs the old alpha by 1019/1024
  p.initial_alpha = 1023.0 / 1024.0;
  p.alpha_update_period = Time::FromUs(1);
  p.rate_reduce_monitor_period = Time::FromUs(4);
  p.min_decrease_factor = 0.50;
  p.clamp_target_rate = false;
  p.clamp_target_rate_after_time_inc = true;
  p.increase_timer_period = Time::FromUs(300);
  p.byte_counter_bytes = 32767;
  p.fast_recovery_steps = 1;
  p.additive_increase = Rate::FromMbps(5);
  p.hyper_increase = Rate::FromMbps(50);
  return p;
}

StatusOr<DcqcnConfig> Compile(const DcqcnParams& p) {
  if (p.line_rate.bps() <= 0) return FieldError("line_rate", "must be positive");
  if (p.min_rate.bps() <= 0 || p.min_rate > p.line_rate) {
    return FieldError("min_rate", "must be positive and at most line_rate, got " +
                                      std::to_string(p.min_rate.bps()) + " b/s");
  }
  if (!(p.g > 0 && p.g <= 1)) {
    return FieldError("g", "must be in (0, 1], got " + std::to_string(p.g));
  }
  if (!(p.initial_alpha >= 0 && p.initial_alpha <= 1)) {
    return FieldError("initial_alpha", "must be in [0, 1], got " + std::to_string(p.initial_alpha));
  }
  if (p.alpha_update_period <= Time::Zero()) {
    return FieldError("alpha_update_period", "must be positive");
  }
  if (p.rate_reduce_monitor_period < Time::Zero()) {
    return FieldError("rate_reduce_monitor_period", "must not be negative");
  }
  if (!(p.min_decrease_factor >= 0 && p.min_decrease_factor < 1)) {
    return FieldError("min_decrease_factor",
                      "must be in [0, 1), got " + std::to_string(p.min_decrease_factor));
  }
  if (p.increase_timer_period <= Time::Zero()) {
    return FieldError("increase_timer_period", "must be positive");
  }
  if (p.byte_counter_bytes <= 0) {
    return FieldError("byte_counter_bytes",
                      "must be positive, got " + std::to_string(p.byte_counter_bytes));
  }
  if (p.additive_increase.bps() < 0) return FieldError("additive_increase", "must not be negative");
  if (p.hyper_increase.bps() < 0) return FieldError("hyper_increase", "must not be negative");

  DcqcnConfig c;
  c.line_rate_bps = p.line_rate.bps();
  c.min_rate_bps = p.min_rate.bps();
  c.g = p.g;
  c.initial_alpha = p.initial_alpha;
  c.alpha_update_period = p.alpha_update_period;
  c.rate_reduce_monitor_period = p.rate_reduce_monitor_period;
  c.min_decrease_factor = p.min_decrease_factor;
  c.clamp_target_rate = p.clamp_target_rate;
  c.clamp_target_rate_after_time_inc = p.clamp_target_rate_after_time_inc;
  c.increase_timer_period = p.increase_timer_period;
  c.byte_counter_bytes = p.byte_counter_bytes;
  c.fast_recovery_steps = p.fast_recovery_steps;
  c.additive_increase_bps = p.additive_increase.bps();
  c.hyper_increase_bps = p.hyper_increase.bps();
  return c;
}

DcqcnState InitialState(const DcqcnConfig& config) {
  DcqcnState s;
  s.current_rate = Rate::FromBps(config.line_rate_bps);
  s.target_rate = s.current_rate;
  s.alpha = config.initial_alpha;
  return s;
}

double AlphaAt(const DcqcnConfig& config, const DcqcnState& state, Time now) {
  if (now <= state.alpha_updated_at) return state.alpha;  // includes "no CNP yet"
  const int64_t periods = (now - state.alpha_updated_at).ps() / config.alpha_update_period.ps();
  if (periods == 0) return state.alpha;
  return state.alpha * std::pow(1.0 - config.g, static_cast<double>(periods));
}

void OnCnp(const DcqcnConfig& config, DcqcnState& state, Time now) {
  OnTimer(config, state, now);
  // Eq. (1) of the paper cuts with the alpha from before this CNP, then updates alpha. A CNP
  // inside the monitor period joins the pending cut, which uses alpha as it stands then.
  if (state.pending_cut == Time::Infinite()) {
    if (MonitorPeriodOver(config, state, now)) {
      Cut(config, state, now);
    } else {
      state.pending_cut = state.last_cut + config.rate_reduce_monitor_period;
    }
  }
  state.alpha = (1 - config.g) * AlphaAt(config, state, now) + config.g;
  state.alpha_updated_at = now;
}

void OnBytesSent(const DcqcnConfig& config, DcqcnState& state, int64_t bytes, Time now) {
  OnTimer(config, state, now);
  if (state.next_increase == Time::Infinite()) return;  // at line rate: nothing to recover
  state.bytes_since_increase += bytes;
  while (state.bytes_since_increase >= config.byte_counter_bytes &&
         state.next_increase != Time::Infinite()) {
    state.bytes_since_increase -= config.byte_counter_bytes;
    Increase(config, state, DcqcnIncreaseCause::kBytes);
  }
}

void OnTimer(const DcqcnConfig& config, DcqcnState& state, Time now) {
  for (;;) {
    if (state.pending_cut <= state.next_increase) {  // a tie cuts first; the cut re-arms the timer
      if (state.pending_cut > now) return;
      Cut(config, state, state.pending_cut);
    } else {
      if (state.next_increase > now) return;
      state.next_increase += config.increase_timer_period;
      Increase(config, state, DcqcnIncreaseCause::kTimer);
    }
  }
}

}  // namespace fe::cong
