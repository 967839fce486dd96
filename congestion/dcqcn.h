// DCQCN reaction point (Zhu et al., "Congestion Control for Large-Scale RDMA Deployments",
// SIGCOMM 2015): the sender-side rate limiter of one queue pair, driven by CNPs, its own
// transmitted bytes and one increase timer. Equations, presets and their sources are in
// docs/congestion-control.md.
//
// Timers are lazy. The policy never asks to be polled: NextTimerDue() says when the state would
// next change on its own (Time::Infinite() while the QP runs at line rate, which is where most
// QPs of a large NIC sit), and every entry point first replays the expiries due at or before its
// `now`. A NIC therefore keeps at most one scheduled event per throttled QP, and may run OnTimer
// late: the result is the same as running it at each due time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/units.h"

namespace fe::cong {

// User parameters. The defaults are the SIGCOMM'15 paper's values (see Sigcomm2015()); the
// comment on each field names the NVIDIA ConnectX knob it corresponds to.
struct DcqcnParams {
  // The QP's maximum rate: the NIC port (or traffic-class) rate. Rates never exceed it.
  Rate line_rate = Rate::FromGbps(100);
  // Floor of every cut (rpg_min_rate).
  Rate min_rate = Rate::FromMbps(100);
  // EWMA gain of alpha: alpha := (1 - g) alpha + g on a CNP (1 - dce_tcp_g / 1024).
  double g = 1.0 / 256;
  // Alpha before the first CNP (initial_alpha_value / 1024).
  double initial_alpha = 1.0;
  // K: alpha := (1 - g) alpha for each such period without a CNP (dce_tcp_rtt).
  Time alpha_update_period = Time::FromUs(55);
  // At most one cut per period; CNPs inside it are coalesced into one cut at its end
  // (rate_reduce_monitor_period). Zero: every CNP cuts at once.
  Time rate_reduce_monitor_period = Time::Zero();
  // A cut never leaves less than this fraction of the rate (rpg_min_dec_fac / 100).
  double min_decrease_factor = 0.0;
  // On a cut, target := current always (clamp_tgt_rate) ...
  bool clamp_target_rate = true;
  // ... or only if the last increase since the previous cut was a timer one
  // (clamp_tgt_rate_after_time_inc). A byte-counter increase always clamps.
  bool clamp_target_rate_after_time_inc = true;
  // T: the increase timer period (rpg_time_reset).
  Time increase_timer_period = Time::FromUs(55);
  // B: bytes sent per byte-counter increase (rpg_byte_reset).
  int64_t byte_counter_bytes = 10'000'000;
  // F: increase events of one counter before leaving fast recovery (rpg_threshold).
  uint32_t fast_recovery_steps = 5;
  // R_AI: target step of additive increase (rpg_ai_rate).
  Rate additive_increase = Rate::FromMbps(40);
  // R_HAI: target step unit of hyper increase (rpg_hai_rate). 10 R_AI; the paper's own value is
  // unconfirmed (see the doc).
  Rate hyper_increase = Rate::FromMbps(400);

  // The SIGCOMM'15 paper's parameters (the defaults above).
  static DcqcnParams Sigcomm2015() { return DcqcnParams{}; }
  // NVIDIA ConnectX-4 and later firmware defaults.
  static DcqcnParams NvidiaConnectX();
};

// Compiled form: integer rates and the constants the hot path multiplies by.
struct DcqcnConfig {
  int64_t line_rate_bps = 0;
  int64_t min_rate_bps = 0;
  double g = 0;
  double initial_alpha = 0;
  Time alpha_update_period;
  Time rate_reduce_monitor_period;
  double min_decrease_factor = 0;
  bool clamp_target_rate = false;
  bool clamp_target_rate_after_time_inc = false;
  Time increase_timer_period;
  int64_t byte_counter_bytes = 0;
  uint32_t fast_recovery_steps = 0;
  int64_t additive_increase_bps = 0;
  int64_t hyper_increase_bps = 0;
};

// A field of DcqcnParams, so that an error can name it without the caller matching text: the
// scenario validator maps each to the field of the file that sets it.
enum class DcqcnField : uint8_t {
  kLineRate,
  kMinRate,
  kG,
  kInitialAlpha,
  kAlphaUpdatePeriod,
  kRateReduceMonitorPeriod,
  kMinDecreaseFactor,
  kIncreaseTimerPeriod,
  kByteCounterBytes,
  kAdditiveIncrease,
  kHyperIncrease,
};
// The field's name in DcqcnParams ("g", "min_rate").
const char* DcqcnFieldName(DcqcnField field);

struct DcqcnError {
  DcqcnField field;
  std::string reason;  // the allowed range and the value refused
};

// Every field outside its allowed range, in declaration order; empty when the set compiles.
// These ranges are the only ones: the scenario validator reports these errors, not its own.
std::vector<DcqcnError> Check(const DcqcnParams& params);

// Refuses what Check refuses; the message names the first bad field ("dcqcn.g: ...").
StatusOr<DcqcnConfig> Compile(const DcqcnParams& params);

enum class DcqcnIncreaseCause : uint8_t { kNone, kTimer, kBytes };

// Per-QP run-time state. Read current_rate to pace the QP; change it only through the functions
// below.
struct DcqcnState {
  Rate current_rate;  // R_C
  Rate target_rate;   // R_T
  // Alpha as of alpha_updated_at; it decays lazily from there (see AlphaAt()).
  double alpha = 0;
  Time alpha_updated_at = Time::Infinite();  // Infinite: no CNP yet, so no decay yet
  Time next_increase = Time::Infinite();     // increase timer; Infinite while at line rate
  Time pending_cut = Time::Infinite();       // coalesced cut at the end of a monitor period
  Time last_cut = Time::Infinite();          // Infinite: never cut
  int64_t bytes_since_increase = 0;
  uint32_t timer_stage = 0;  // timer expiries since the last cut
  uint32_t byte_stage = 0;   // byte-counter expiries since the last cut
  DcqcnIncreaseCause last_increase = DcqcnIncreaseCause::kNone;
};

// A QP that has seen no congestion: line rate, no timer armed.
DcqcnState InitialState(const DcqcnConfig& config);

// A CNP reached the QP.
void OnCnp(const DcqcnConfig& config, DcqcnState& state, Time now);
// The QP put `bytes` on the wire (drives the byte counter).
void OnBytesSent(const DcqcnConfig& config, DcqcnState& state, int64_t bytes, Time now);
// Runs every expiry due at or before now, in time order.
void OnTimer(const DcqcnConfig& config, DcqcnState& state, Time now);
// When the state next changes by itself; Time::Infinite() if never (QP at line rate).
inline Time NextTimerDue(const DcqcnState& state) {
  return state.pending_cut < state.next_increase ? state.pending_cut : state.next_increase;
}
// Alpha at `now`, with the decay of the alpha periods elapsed since the last CNP.
double AlphaAt(const DcqcnConfig& config, const DcqcnState& state, Time now);

}  // namespace fe::cong
