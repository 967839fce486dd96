// Background load: every host opens flows to random other hosts as a Poisson process, with flow
// sizes drawn from an empirical CDF, so that each host offers a chosen fraction of its link rate.
// This is the open-loop workload of the DCTCP/HPCC/ConWeave evaluations.
#pragma once

#include <cstdint>
#include <vector>

#include "core/status.h"
#include "core/units.h"
#include "traffic/flow.h"
#include "traffic/flow_size_cdf.h"

namespace fe {

struct CdfLoadParams {
  // By host index: the rate of each host's own link. Each host offers `load` of it, so a host on
  // a faster link opens proportionally more flows.
  std::vector<Rate> host_link_rates;
  double load = 0;  // offered load per host as a fraction of its link rate, in (0, 1]
  Time start;       // arrivals happen at or after start
  // Generation stops at whichever bound comes first; zero disables a bound, and at least one
  // must be set.
  Time duration;           // arrivals in [start, start + duration)
  uint64_t max_flows = 0;  // total over all hosts
  uint64_t seed = 0;
  // More flows than this is an error, found as soon as it is passed (so memory stays bounded);
  // 0: 2^32.
  uint64_t refuse_above = 0;
};

// Flow arrivals per second at a host whose link runs at host_link_rate: load x rate / (8 x mean
// size), so that the host's mean offered bit rate is load x its rate.
double CdfLoadArrivalsPerSecond(double load, Rate host_link_rate, const FlowSizeCdf& sizes);

// Flows in order of start time, ids 0, 1, ... in that order. The n independent per-host Poisson
// processes are generated as their superposition, a Poisson process of the summed rate whose
// arrivals belong to a host chosen in proportion to its own rate (uniformly when every host link
// runs at one rate); this is the same distribution and lets a flow-count bound stop all hosts at
// one instant. Each destination is uniform among the other hosts.
// Arrival gaps are exponential, rounded to the picosecond.
StatusOr<std::vector<Flow>> MakeCdfLoad(const CdfLoadParams& params, const FlowSizeCdf& sizes);

}  // namespace fe
