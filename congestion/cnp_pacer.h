// DCQCN notification point: the receiver of a CE-marked packet answers with a CNP, at most one
// per receiving QP per interval. As in the paper's notification point, a CE mark on a QP that sent
// no CNP in the last interval is answered at once, and marks inside the interval are absorbed.
// No timer: the decision is taken when a marked packet arrives.
#pragma once

#include "core/status.h"
#include "core/units.h"

namespace fe::cong {

struct CnpPacerParams {
  // N: minimum time between two CNPs of one QP. Zero answers every CE mark.
  Time min_interval = Time::FromUs(50);

  // The SIGCOMM'15 paper's N = 50 us (the default).
  static CnpPacerParams Sigcomm2015() { return CnpPacerParams{}; }
  // NVIDIA ConnectX min_time_between_cnps = 4 us.
  static CnpPacerParams NvidiaConnectX() { return CnpPacerParams{Time::FromUs(4)}; }
};

struct CnpPacerConfig {
  Time min_interval;
};

// Refuses a negative interval; the message names the field ("cnp_pacer.min_interval: ...").
StatusOr<CnpPacerConfig> Compile(const CnpPacerParams& params);

// Per receiving QP. Times start at zero, so a fresh QP answers its first mark at once.
struct CnpPacerState {
  Time next_allowed = Time::Zero();
};

// A CE-marked packet reached the QP at `now`: true if a CNP must be sent for it.
inline bool ShouldSendCnp(const CnpPacerConfig& config, CnpPacerState& state, Time now) {
  if (now < state.next_allowed) return false;
  state.next_allowed = now + config.min_interval;
  return true;
}

}  // namespace fe::cong
