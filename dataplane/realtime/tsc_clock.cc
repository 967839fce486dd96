#include "dataplane/realtime/tsc_clock.h"

namespace fe::dp {

TscClock::TscClock() : start_cycles_(rte_rdtsc()), hz_(rte_get_tsc_hz()) {
  ps_per_cycle_q32_ =
      static_cast<uint64_t>(((static_cast<__int128>(1000000000000LL) << 32) + hz_ / 2) / hz_);
}

}  // namespace fe::dp
