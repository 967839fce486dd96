// jobs.csv: one row per training job and iteration (docs/scenario.md, "Outputs").
#pragma once

#include <span>
#include <string>

#include "control/process/output_set.h"
#include "core/status.h"
#include "traffic/job_metrics.h"
#include "traffic/workload.h"

namespace fe::control {

// Header job,iteration,start_ns,end_ns,time_ns,compute_ns,communication_share,checkpoint; an
// iteration the run did not complete has end_ns, time_ns and communication_share empty, and one
// that never started (the iteration before it did not end) start_ns empty too.
std::string JobsCsv(const Workload& w, std::span<const JobTiming> jobs);

// What a run writes of its training jobs: jobs.csv into `outputs`, only when the workload has
// iterations. Returns the file's name ("" if none).
StatusOr<std::string> WriteJobsCsv(const Workload& w, std::span<const MessageOutcome> outcomes,
                                   OutputSet* outputs);

}  // namespace fe::control
