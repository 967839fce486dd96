// The scenario's training section as a workload (traffic/training.h): the proto's fields as a
// TrainingSpec, the job's messages and iterations.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "proto/training.pb.h"
#include "topology/graph.h"
#include "traffic/compute_time.h"
#include "traffic/workload.h"

namespace fe::control {

ComputeTime ComputeTimeOf(const fabric_emu::ComputeTime& c);

// The host of every rank, in rank order: `placement` of data x tensor x pipeline parallel ranks
// over `host` (unset: every host but the storage hosts). Errors: too few hosts, or a
// tensor-parallel group (tensor_parallel consecutive ranks) outside one locality group (scale-up
// domain; without domains, the switch behind which hosts sit), which must hold it.
StatusOr<std::vector<uint32_t>> TrainingRankHosts(const fabric_emu::Training& t,
                                                  const topo::Graph& graph, uint64_t seed);

// A validated section's workload (one job, kind "training"); compute times drawn from `seed`.
StatusOr<Workload> TrainingWorkload(const fabric_emu::Training& t, const topo::Graph& graph,
                                    uint64_t seed, const std::string& scenario_dir);

}  // namespace fe::control
