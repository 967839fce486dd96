// The figures a sweep compares across its points, read from each point's summary.json: flows
// completed, FCT and slowdown percentiles, makespan, goodput, drops, ECN marks, pause frames,
// CNPs, retransmissions, the deepest queue, and each training job's iteration time.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"

namespace fe::control {

struct HeadlineValue {
  std::string name;  // the sweep.csv column, with its unit: fct_p99_ns, goodput_gbps
  std::string text;  // as summary.json writes the number (the shortest exact decimal)
  double value = 0;
};

// The headline results of one summary.json, in column order; a training job adds
// job.<name>.iteration_p50_ns and _p99_ns after the fixed columns. Sums over switch queues and
// goodput are derived here (docs/sweep.md defines each column).
StatusOr<std::vector<HeadlineValue>> ReadHeadline(const std::string& summary_json);

}  // namespace fe::control
