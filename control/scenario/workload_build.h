// The scenario's traffic as one workload: each traffic section becomes a job of its own (named by
// its `job` field, else by its pattern and index: "incast1"), with the section's DSCP, and the
// sections' workloads are merged in section order. Each section draws from a stream of its own,
// so adding a section leaves the others' messages unchanged.
#pragma once

#include <cstdint>
#include <string>

#include "core/status.h"
#include "proto/scenario.pb.h"
#include "topology/graph.h"
#include "traffic/workload.h"

namespace fe::control {

// Relative file paths in the sections start at scenario_dir. Each section's dependencies are
// checked (CheckDependencies) before the workload is returned; errors name the section
// ("traffic[2]: message 3 waits for itself").
StatusOr<Workload> BuildWorkload(const fabric_emu::Scenario& scenario, const topo::Graph& graph,
                                 uint64_t seed, const std::string& scenario_dir);

// A flow list's flows, in order, each waiting for the flows its `after` names (indices in the list:
// unchecked here, CheckDependencies refuses bad ones; a negative index names no flow).
Workload FlowListWorkload(const fabric_emu::FlowList& list);

}  // namespace fe::control
