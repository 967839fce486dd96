// The scenario's training section as a workload (traffic/training.h): the proto's fields as a
// TrainingSpec, the job's messages and iterations.
#pragma once

#include <cstdint>
#include <string>

#include "core/status.h"
#include "proto/training.pb.h"
#include "topology/graph.h"
#include "traffic/compute_time.h"
#include "traffic/workload.h"

namespace fe::control {

ComputeTime ComputeTimeOf(const fabric_emu::ComputeTime& c);

// A validated section's workload (one job, kind "training"); compute times drawn from `seed`.
StatusOr<Workload> TrainingWorkload(const fabric_emu::Training& t, const topo::Graph& graph,
                                    uint64_t seed, const std::string& scenario_dir);

}  // namespace fe::control
