// The compute-only schedule of a workload: when each message would start if the network took no
// time (every message delivered the instant it starts), so that only start times and compute
// delays remain. Its span is the compute on the critical path, against which a run's times show
// what the network added.
#pragma once

#include <vector>

#include "core/units.h"
#include "traffic/workload.h"

namespace fe {

// By message id: flows[i].start, or the latest of its dependencies' compute-only starts plus
// delay[i] when that is later. The workload's dependencies must form no cycle (CheckDependencies).
std::vector<Time> ComputeOnlyStarts(const Workload& w);

}  // namespace fe
