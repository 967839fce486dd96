// The scenario's kv_cache traffic section as a workload: its fields as KvCacheParams, its requests
// from the trace file or the Poisson process (docs/workloads.md, "Inference KV-cache transfers").
#pragma once

#include <cstdint>
#include <string>

#include "core/status.h"
#include "proto/kv_cache.pb.h"
#include "topology/graph.h"
#include "traffic/kv_cache.h"
#include "traffic/model_presets.h"
#include "traffic/workload.h"

namespace fe::control {

// The model's shape: the preset's, with the fields set replacing its values.
KvModelShape KvModelShapeOf(const fabric_emu::KvModel& model);

// The section's workload, in one job of kind "kv_cache" (its name and DSCP are the caller's to
// set). Poisson requests draw from `seed`; relative file names start at scenario_dir. Errors of
// a trace file read "file:line: reason".
StatusOr<Workload> KvCacheWorkload(const fabric_emu::KvCache& kv, const topo::Graph& graph,
                                   uint64_t seed, const std::string& scenario_dir);

}  // namespace fe::control
