// HPCC sender (Li et al., "HPCC: High Precision Congestion Control", SIGCOMM 2019, Algorithm 1).
// Every switch egress port on the path stamps an IntHop into data packets; the receiver echoes
// the stack in its ACK; OnAck turns the stack into the QP's window W and pacing rate W / T.
// Equations and sources are in docs/congestion-control.md. HPCC is ACK-clocked: no timer.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/status.h"
#include "core/units.h"

namespace fe::cong {

// Stack depth carried per packet. A 3-tier fat-tree path crosses 5 switch egress ports; 8 leaves
// room for deeper Clos fabrics. Hops past this depth are not read.
inline constexpr size_t kMaxIntHops = 8;

// The in-band telemetry one switch egress port stamps into a data packet.
struct IntHop {
  uint64_t tx_bytes = 0;  // bytes the port has transmitted since it came up (64 bits: no wrap)
  Time timestamp;         // when the port stamped the record
  Rate link_rate;         // the port's rate B
  uint32_t queue_bytes = 0;
};

struct HpccParams {
  // B_NIC: the QP never exceeds it, and W_init = B_NIC * T.
  Rate line_rate = Rate::FromGbps(100);
  // T, the base (unloaded) RTT of the QP's path. No default: the NIC takes it from the path.
  Time base_rtt = Time::Zero();
  // Target utilisation.
  double eta = 0.95;
  // Additive steps before a multiplicative increase is allowed.
  uint32_t max_stage = 5;
  // W_AI. Zero derives it as W_init * (1 - eta) / expected_flows: that many flows can all add
  // W_AI within the (1 - eta) headroom.
  int64_t w_ai_bytes = 0;
  uint32_t expected_flows = 100;
  // The window never goes below min_rate * T.
  Rate min_rate = Rate::FromMbps(100);
};

struct HpccConfig {
  int64_t line_rate_bps = 0;
  double base_rtt_ps = 0;
  double eta = 0;
  uint32_t max_stage = 0;
  double w_init_bytes = 0;
  double w_ai_bytes = 0;
  double w_min_bytes = 0;
};

// Refuses an inconsistent parameter set; the message names the field ("hpcc.eta: ...").
StatusOr<HpccConfig> Compile(const HpccParams& params);

struct HpccState {
  std::array<IntHop, kMaxIntHops> last_hops;  // L: the stack of the previous ACK
  uint32_t hop_count = 0;                     // 0: no ACK seen yet
  uint32_t inc_stage = 0;
  double utilization = 1;             // U, smoothed; starts at 1 as in the authors' simulator
  double reference_window_bytes = 0;  // W_c, updated once per RTT
  double window_bytes = 0;            // W, updated on every ACK
  Rate rate;                          // W / T, what the NIC paces at
  uint64_t last_update_seq = 0;
};
static_assert(sizeof(HpccState) == 304,
              "HpccState is 304 bytes, the previous INT stack (8 x 32) and the window state, "
              "per QP in HPCC runs only (docs/congestion-control.md)");

// A fresh QP: W = W_c = W_init, line rate.
HpccState InitialState(const HpccConfig& config);

// An ACK carrying the echoed INT stack `hops` (first hop first). ack_seq and snd_nxt are the
// QP's cumulative sequence counters, in any unit as long as both use it and neither wraps; an
// ACK beyond the snd_nxt of the last per-RTT update starts a new RTT and moves W_c.
void OnAck(const HpccConfig& config, HpccState& state, std::span<const IntHop> hops,
           uint64_t ack_seq, uint64_t snd_nxt);

}  // namespace fe::cong
