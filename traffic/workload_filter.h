// A workload less some of its messages, for a fabric that cannot carry them all (real-time mode
// leaves out what real hosts send and receive: they have no emulated NIC).
#pragma once

#include <cstdint>
#include <vector>

#include "traffic/workload.h"

namespace fe {

// `w` without the messages whose leave_out entry is nonzero and, transitively, without every
// message that waits for one left out (it could never start). The rest keep their order, ids
// renumbered and dependencies with them; jobs, ops, iterations and requests stay as they are.
// `w` must pass CheckDependencies.
Workload LeaveOut(const Workload& w, std::vector<uint8_t> leave_out);

}  // namespace fe
