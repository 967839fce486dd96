// Per training job and iteration, from a run's message outcomes: when each iteration started and
// ended, how long it took and which share of that the network added beyond the compute on the
// critical path; per job, iteration-time percentiles. Writers (jobs.csv, summary.json) live in
// control/report/.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/units.h"
#include "traffic/workload.h"

namespace fe {

struct IterationTiming {
  uint32_t index = 0;  // within the job
  // Iteration k starts when iteration k - 1 ends (the first, at the job's start) and ends when
  // the last of its messages is delivered. Infinite: it never started, or did not end.
  Time start;
  Time end;
  Time compute;  // Iteration::compute: the compute-only span of the iteration
  bool checkpoint = false;
  bool completed = false;  // false: the run stopped before its last message was delivered

  Time time() const { return end - start; }
  // The share of the iteration not covered by compute on the critical path:
  // max(0, time - compute) / time.
  double communication_share() const;
};

struct IterationTimeQuantiles {
  Time p50, p99, max;  // nearest rank
};

struct JobTiming {
  uint32_t job = 0;  // index in Workload::jobs
  std::vector<IterationTiming> iterations;
  uint32_t completed = 0;
  // Over the completed iterations: their times, and the exposed communication of all of them
  // over their total time. None when no iteration completed (or, for the share, they took no
  // time): a figure of nothing, where 0 would read as the fastest possible.
  std::optional<IterationTimeQuantiles> time;
  std::optional<double> communication_share;
};

// One entry per job that has iterations, in job order. outcomes is by message id.
std::vector<JobTiming> JobTimings(const Workload& w, std::span<const MessageOutcome> outcomes);

}  // namespace fe
