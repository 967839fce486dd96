#include "traffic/job_metrics.h"

#include <algorithm>

#include "traffic/compute_only.h"
#include "traffic/flow_metrics.h"

namespace fe {

double IterationTiming::communication_share() const {
  if (time() <= Time::Zero()) return 0;
  const Time exposed = std::max(time() - compute, Time::Zero());
  return static_cast<double>(exposed.ps()) / static_cast<double>(time().ps());
}

std::vector<JobTiming> JobTimings(const Workload& w, std::span<const MessageOutcome> outcomes) {
  const size_t n = w.iterations.size();
  std::vector<Time> end(n, Time::Zero());
  std::vector<Time> compute_only_end(n, Time::Zero());
  std::vector<bool> completed(n, true);
  const std::vector<Time> compute_only = ComputeOnlyStarts(w);
  for (uint32_t i = 0; i < w.size(); ++i) {
    const uint32_t k = w.iteration_of[i];
    if (k == kNoIndex) continue;
    if (outcomes[i].delivered == Time::Infinite()) completed[k] = false;
    end[k] = std::max(end[k], outcomes[i].delivered);
    compute_only_end[k] = std::max(compute_only_end[k], compute_only[i]);
  }
  std::vector<JobTiming> jobs;
  std::vector<uint32_t> entry_of_job(w.jobs.size(), kNoIndex);
  for (size_t k = 0; k < n; ++k) {
    const Iteration& it = w.iterations[k];
    uint32_t& entry = entry_of_job[it.job];
    if (entry == kNoIndex) {
      entry = static_cast<uint32_t>(jobs.size());
      JobTiming job;
      job.job = it.job;
      jobs.push_back(std::move(job));
    }
    std::vector<IterationTiming>& list = jobs[entry].iterations;
    IterationTiming t;
    t.index = it.index;
    t.compute = it.compute;
    t.checkpoint = it.checkpoint;
    // The first iteration's compute-only span starts at the job's start, which no network delays.
    t.start = list.empty() ? compute_only_end[k] - it.compute : list.back().end;
    t.completed = completed[k] && (list.empty() || list.back().completed);
    t.end = t.completed ? end[k] : Time::Infinite();
    list.push_back(t);
  }
  for (JobTiming& job : jobs) {
    std::vector<Time> times;
    Time exposed = Time::Zero(), total = Time::Zero();
    for (const IterationTiming& t : job.iterations) {
      if (!t.completed) continue;
      times.push_back(t.time());
      exposed += std::max(t.time() - t.compute, Time::Zero());
      total += t.time();
    }
    job.completed = static_cast<uint32_t>(times.size());
    if (times.empty()) continue;
    std::sort(times.begin(), times.end());
    job.time = IterationTimeQuantiles{.p50 = NearestRankPercentile<Time>(times, 50),
                                      .p99 = NearestRankPercentile<Time>(times, 99),
                                      .max = times.back()};
    if (total > Time::Zero()) {
      job.communication_share = static_cast<double>(exposed.ps()) / static_cast<double>(total.ps());
    }
  }
  return jobs;
}

}  // namespace fe
