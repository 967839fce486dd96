// jobs.csv: one row per training job and iteration (docs/scenario.md, "Outputs").
#pragma once

#include <span>
#include <string>

#include "traffic/job_metrics.h"
#include "traffic/workload.h"

namespace fe::control {

// Header job,iteration,start_ns,end_ns,time_ns,compute_ns,communication_share,checkpoint; an
// iteration the run did not complete has end_ns, time_ns and communication_share empty.
std::string JobsCsv(const Workload& w, std::span<const JobTiming> jobs);

}  // namespace fe::control
