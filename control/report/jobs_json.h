// The training jobs' section of summary.json: one object per job (docs/scenario.md, "Outputs").
#pragma once

#include <nlohmann/json.hpp>
#include <span>

#include "traffic/job_metrics.h"
#include "traffic/workload.h"

namespace fe::control {

// An array, in job order: job, kind, iterations, iterations_completed, iteration_time_ns
// {p50, p99, max} (nearest rank over the completed iterations) and communication_share.
nlohmann::ordered_json JobsJson(const Workload& w, std::span<const JobTiming> jobs);

}  // namespace fe::control
