// What summary.json says of a training job's iterations, inside the job's object of `jobs`
// (docs/scenario.md, "Outputs").
#pragma once

#include <nlohmann/json.hpp>
#include <span>

#include "traffic/job_metrics.h"

namespace fe::control {

// Sets, in jobs[t.job] for each training job t, "iterations": {count, completed, time_ns {p50,
// p99, max} (nearest rank over the completed iterations), communication_share}; the figures are
// null when no iteration completed. `jobs` is summary.json's array, one object per job of the
// workload.
void AddIterationTimes(std::span<const JobTiming> timings, nlohmann::ordered_json* jobs);

}  // namespace fe::control
