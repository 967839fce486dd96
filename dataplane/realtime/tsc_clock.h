// Real time for real-time mode: the CPU's time-stamp counter, as time since the clock was made.
// The TSC is invariant on the CPUs DPDK supports (constant rate across frequency changes), and
// reading it costs a few nanoseconds, so the loop can afford one read per event.
#pragma once

#include <rte_cycles.h>

#include <cstdint>

#include "core/clock.h"
#include "core/units.h"

namespace fe::dp {

class TscClock final : public Clock {
 public:
  // The EAL must be initialised (it measures the TSC rate).
  TscClock();

  // Final, so a caller holding a TscClock calls this without a virtual dispatch.
  Time Now() const override { return CyclesToTime(rte_rdtsc() - start_cycles_); }

  uint64_t hz() const { return hz_; }
  Time CyclesToTime(uint64_t cycles) const {
    return Time::FromPs(
        static_cast<int64_t>((static_cast<__int128>(cycles) * ps_per_cycle_q32_) >> 32));
  }

 private:
  uint64_t start_cycles_;
  uint64_t hz_;
  // Picoseconds per cycle in 32.32 fixed point: 1e12 / hz with a relative error below 2^-32 /
  // (ps per cycle), far under the TSC's own calibration error.
  uint64_t ps_per_cycle_q32_;
};

}  // namespace fe::dp
