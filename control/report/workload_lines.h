// The console's lines for a run's workload: one per training job and one per KV-cache job, after
// the message totals. A figure over nothing completed reads "none", as the FCT line does, never 0.
#pragma once

#include <string>

#include "traffic/job_metrics.h"
#include "traffic/kv_metrics.h"

namespace fe::control {

// "  job       NAME: C of N iterations, time p50 X us, p99 Y us; communication Z%\n".
std::string JobLine(const std::string& name, const JobTiming& job);

// "  kv        NAME: C of N requests, transfer p50 X us, p99 Y us; R of B KV bytes reused\n".
std::string KvLine(const std::string& name, const KvJobSummary& kv);

}  // namespace fe::control
