#include "congestion/hpcc.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace fe::cong {
namespace {

Status FieldError(const char* field, const std::string& why) {
  return Status::Error(std::string("hpcc.") + field + ": " + why);
}

constexpr double kPsPerSecond = 1e12;

struct Sample {
  double utilization = 0;  // u of the most loaded hop
  double tau_ps = 0;       // the interval that hop's sample covers
};

// MeasureInflight's per-hop part: the largest u over hops with a fresh sample. tau_ps stays 0
// when no hop has one (same timestamps as the last ACK, or a counter that went backwards).
Sample MostLoadedHop(const HpccConfig& config, const HpccState& state,
                     std::span<const IntHop> hops) {
  Sample worst;
  for (size_t i = 0; i < hops.size(); ++i) {
    const IntHop& now = hops[i];
    const IntHop& before = state.last_hops[i];
    const Time tau = now.timestamp - before.timestamp;
    if (tau <= Time::Zero() || now.tx_bytes < before.tx_bytes || now.link_rate.bps() <= 0) {
      continue;
    }
    // In picoseconds, not seconds: 1e-12 has no exact double, and tau = T must weigh exactly 1.
    const double tau_ps = static_cast<double>(tau.ps());
    const double b_bps = static_cast<double>(now.link_rate.bps());
    const double tx_rate_bps =
        static_cast<double>(now.tx_bytes - before.tx_bytes) * 8 * kPsPerSecond / tau_ps;
    // The smaller of the two queue samples, as in the paper: a queue seen only once may be a
    // burst that has already drained.
    const double queue_bits = 8.0 * std::min(now.queue_bytes, before.queue_bytes);
    const double u = queue_bits * kPsPerSecond / (b_bps * config.base_rtt_ps) + tx_rate_bps / b_bps;
    if (worst.tau_ps == 0 || u > worst.utilization) worst = {u, tau_ps};
  }
  return worst;
}

}  // namespace

StatusOr<HpccConfig> Compile(const HpccParams& p) {
  if (p.line_rate.bps() <= 0) return FieldError("line_rate", "must be positive");
  if (p.base_rtt <= Time::Zero()) {
    return FieldError("base_rtt", "must be positive (the base RTT of the QP's path)");
  }
  if (!(p.eta > 0 && p.eta <= 1)) {
    return FieldError("eta", "must be in (0, 1], got " + std::to_string(p.eta));
  }
  if (p.w_ai_bytes < 0) return FieldError("w_ai_bytes", "must not be negative");
  if (p.w_ai_bytes == 0 && p.expected_flows == 0) {
    return FieldError("expected_flows", "must be positive when w_ai_bytes is derived (0)");
  }
  if (p.min_rate.bps() <= 0 || p.min_rate > p.line_rate) {
    return FieldError("min_rate", "must be positive and at most line_rate");
  }
  HpccConfig c;
  c.line_rate_bps = p.line_rate.bps();
  c.base_rtt_ps = static_cast<double>(p.base_rtt.ps());
  c.eta = p.eta;
  c.max_stage = p.max_stage;
  c.w_init_bytes = static_cast<double>(c.line_rate_bps) * c.base_rtt_ps / (8 * kPsPerSecond);
  c.w_ai_bytes = p.w_ai_bytes > 0 ? static_cast<double>(p.w_ai_bytes)
                                  : c.w_init_bytes * (1 - p.eta) / p.expected_flows;
  c.w_min_bytes = static_cast<double>(p.min_rate.bps()) * c.base_rtt_ps / (8 * kPsPerSecond);
  return c;
}

HpccState InitialState(const HpccConfig& config) {
  HpccState s;
  s.reference_window_bytes = config.w_init_bytes;
  s.window_bytes = config.w_init_bytes;
  s.rate = Rate::FromBps(config.line_rate_bps);
  return s;
}

void OnAck(const HpccConfig& config, HpccState& state, std::span<const IntHop> hops,
           uint64_t ack_seq, uint64_t snd_nxt) {
  hops = hops.first(std::min(hops.size(), kMaxIntHops));
  if (hops.empty()) return;  // an ACK without telemetry says nothing about the path
  const bool first_on_path = state.hop_count != hops.size();  // first ACK, or a new path
  if (!first_on_path) {
    // MeasureInflight: U := (1 - tau/T) U + (tau/T) u, with tau <= T.
    const Sample sample = MostLoadedHop(config, state, hops);
    if (sample.tau_ps > 0) {
      const double weight = std::min(sample.tau_ps, config.base_rtt_ps) / config.base_rtt_ps;
      state.utilization = (1 - weight) * state.utilization + weight * sample.utilization;
    }
    // ComputeWind. Only the first ACK of each RTT moves W_c and the stage; the others react
    // from the same W_c, so one RTT's worth of feedback is never applied twice.
    const bool per_rtt_update = ack_seq > state.last_update_seq;
    const double u = state.utilization;
    const bool multiplicative = u >= config.eta || state.inc_stage >= config.max_stage;
    double w = multiplicative
                   ? (u > 0 ? state.reference_window_bytes * config.eta / u + config.w_ai_bytes
                            : config.w_init_bytes)
                   : state.reference_window_bytes + config.w_ai_bytes;
    w = std::clamp(w, config.w_min_bytes, config.w_init_bytes);
    if (per_rtt_update) {
      state.inc_stage = multiplicative ? 0 : state.inc_stage + 1;
      state.reference_window_bytes = w;
      state.last_update_seq = snd_nxt;
    }
    state.window_bytes = w;
    // A ratio, so that W = W_init gives exactly the line rate.
    state.rate = Rate::FromBps(
        std::llround(static_cast<double>(config.line_rate_bps) * (w / config.w_init_bytes)));
  } else if (state.hop_count == 0) {
    state.last_update_seq = snd_nxt;
  }
  std::copy(hops.begin(), hops.end(), state.last_hops.begin());
  state.hop_count = static_cast<uint32_t>(hops.size());
}

}  // namespace fe::cong
