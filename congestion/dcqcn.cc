#include "congestion/dcqcn.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace fe::cong {
namespace {

// DCQCN replays its timers' expiries up to each paced packet's start: at a floor of 1 Mb/s
// (ConnectX's smallest rpg_min_rate) and timers of 1 us, a 9 KB packet's gap holds some 74,000.
// Below either, the replays per packet grow past what a NIC model can afford.
constexpr Rate kMinMinRate = Rate::FromMbps(1);
constexpr Time kMinTimerPeriod = Time::FromUs(1);

// A number as a user writes it: no trailing zeros, at most 15 digits.
std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.15g", v);
  return buf;
}
std::string Mbps(Rate r) { return Num(static_cast<double>(r.bps()) / 1e6); }
std::string Ns(Time t) { return Num(t.fractional_ns()); }

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

const char* DcqcnFieldName(DcqcnField field) {
  switch (field) {
    case DcqcnField::kLineRate:
      return "line_rate";
    case DcqcnField::kMinRate:
      return "min_rate";
    case DcqcnField::kG:
      return "g";
    case DcqcnField::kInitialAlpha:
      return "initial_alpha";
    case DcqcnField::kAlphaUpdatePeriod:
      return "alpha_update_period";
    case DcqcnField::kRateReduceMonitorPeriod:
      return "rate_reduce_monitor_period";
    case DcqcnField::kMinDecreaseFactor:
      return "min_decrease_factor";
    case DcqcnField::kIncreaseTimerPeriod:
      return "increase_timer_period";
    case DcqcnField::kByteCounterBytes:
      return "byte_counter_bytes";
    case DcqcnField::kAdditiveIncrease:
      return "additive_increase";
    case DcqcnField::kHyperIncrease:
      return "hyper_increase";
  }
  return "?";
}

std::vector<DcqcnError> Check(const DcqcnParams& p) {
  std::vector<DcqcnError> errors;
  const auto refuse = [&errors](DcqcnField field, std::string reason) {
    errors.push_back({field, std::move(reason)});
  };
  // Negated comparisons, so that a NaN is refused too.
  if (p.line_rate.bps() <= 0) refuse(DcqcnField::kLineRate, "must be positive");
  if (p.min_rate < kMinMinRate || p.min_rate > p.line_rate) {
    refuse(DcqcnField::kMinRate, "must be in [" + Mbps(kMinMinRate) + ", " + Mbps(p.line_rate) +
                                     "] (in Mb/s: 1 (ConnectX's smallest rpg_min_rate) up to the "
                                     "link rate), got " +
                                     Mbps(p.min_rate));
  }
  if (!(p.g > 0 && p.g <= 1)) refuse(DcqcnField::kG, "must be in (0, 1], got " + Num(p.g));
  if (!(p.initial_alpha >= 0 && p.initial_alpha <= 1)) {
    refuse(DcqcnField::kInitialAlpha, "must be in [0, 1], got " + Num(p.initial_alpha));
  }
  const std::string timer_range =
      "must be at least " + Ns(kMinTimerPeriod) + " (in ns: DCQCN's timers run in microseconds)";
  if (p.alpha_update_period < kMinTimerPeriod) {
    refuse(DcqcnField::kAlphaUpdatePeriod, timer_range + ", got " + Ns(p.alpha_update_period));
  }
  if (p.rate_reduce_monitor_period < Time::Zero()) {
    refuse(
        DcqcnField::kRateReduceMonitorPeriod,
        "must be >= 0 (in ns; 0: every CNP cuts at once), got " + Ns(p.rate_reduce_monitor_period));
  }
  if (!(p.min_decrease_factor >= 0 && p.min_decrease_factor < 1)) {
    refuse(DcqcnField::kMinDecreaseFactor, "must be in [0, 1), got " + Num(p.min_decrease_factor));
  }
  if (p.increase_timer_period < kMinTimerPeriod) {
    refuse(DcqcnField::kIncreaseTimerPeriod, timer_range + ", got " + Ns(p.increase_timer_period));
  }
  if (p.byte_counter_bytes <= 0) {
    refuse(DcqcnField::kByteCounterBytes,
           "must be > 0, got " + std::to_string(p.byte_counter_bytes));
  }
  if (p.additive_increase.bps() < 0) {
    refuse(DcqcnField::kAdditiveIncrease,
           "must be >= 0 (in Mb/s), got " + Mbps(p.additive_increase));
  }
  if (p.hyper_increase.bps() < 0) {
    refuse(DcqcnField::kHyperIncrease, "must be >= 0 (in Mb/s), got " + Mbps(p.hyper_increase));
  }
  return errors;
}

StatusOr<DcqcnConfig> Compile(const DcqcnParams& p) {
  if (const std::vector<DcqcnError> errors = Check(p); !errors.empty()) {
    return Status::Error(std::string("dcqcn.") + DcqcnFieldName(errors[0].field) + ": " +
                         errors[0].reason);
  }

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
