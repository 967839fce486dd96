#include "traffic/workload.h"

#include <string>

namespace fe {

uint32_t Workload::Add(Flow flow, std::span<const uint32_t> deps, Time delay_after, uint32_t job,
                       uint32_t op, uint32_t iteration, uint32_t request) {
  const auto id = static_cast<uint32_t>(flows.size());
  flow.id = id;
  flows.push_back(flow);
  delay.push_back(delay_after);
  job_of.push_back(job);
  op_of.push_back(op);
  iteration_of.push_back(iteration);
  request_of.push_back(request);
  after.insert(after.end(), deps.begin(), deps.end());
  after_begin.push_back(static_cast<uint32_t>(after.size()));
  return id;
}

void Workload::Append(const Workload& other) {
  const auto base = static_cast<uint32_t>(flows.size());
  const auto shift = [](uint32_t index, size_t by) {
    return index == kNoIndex ? kNoIndex : index + static_cast<uint32_t>(by);
  };
  const size_t jobs0 = jobs.size(), ops0 = ops.size(), iterations0 = iterations.size(),
               requests0 = requests.size();
  for (uint32_t i = 0; i < other.size(); ++i) {
    for (const uint32_t d : other.dependencies(i)) after.push_back(d + base);
    Flow f = other.flows[i];
    f.id = base + i;
    flows.push_back(f);
    delay.push_back(other.delay[i]);
    job_of.push_back(shift(other.job_of[i], jobs0));
    op_of.push_back(shift(other.op_of[i], ops0));
    iteration_of.push_back(shift(other.iteration_of[i], iterations0));
    request_of.push_back(shift(other.request_of[i], requests0));
    after_begin.push_back(static_cast<uint32_t>(after.size()));
  }
  jobs.insert(jobs.end(), other.jobs.begin(), other.jobs.end());
  for (CollectiveOp op : other.ops) {
    op.job = shift(op.job, jobs0);
    op.iteration = shift(op.iteration, iterations0);
    ops.push_back(op);
  }
  for (Iteration it : other.iterations) {
    it.job = shift(it.job, jobs0);
    iterations.push_back(it);
  }
  for (KvRequest r : other.requests) {
    r.job = shift(r.job, jobs0);
    requests.push_back(r);
  }
}

Workload WorkloadOf(std::vector<Flow> flows, Job job) {
  Workload w;
  w.jobs.push_back(std::move(job));
  w.flows.reserve(flows.size());
  for (const Flow& f : flows) w.Add(f);
  return w;
}

Status CheckDependencies(const Workload& w) {
  const auto n = static_cast<uint32_t>(w.size());
  // Kahn's algorithm over the reversed edges: a message is done once every dependency is.
  std::vector<uint32_t> waiting(n, 0);
  std::vector<uint32_t> dependants_begin(n + 1, 0);
  for (uint32_t i = 0; i < n; ++i) {
    for (const uint32_t d : w.dependencies(i)) {
      if (d >= n) {
        return Status::Error("message " + std::to_string(i) + " waits for message " +
                             std::to_string(d) + ", which does not exist");
      }
      if (d == i) return Status::Error("message " + std::to_string(i) + " waits for itself");
      ++waiting[i];
      ++dependants_begin[d + 1];
    }
  }
  for (uint32_t i = 0; i < n; ++i) dependants_begin[i + 1] += dependants_begin[i];
  std::vector<uint32_t> dependants(w.after.size());
  std::vector<uint32_t> fill(dependants_begin.begin(), dependants_begin.end() - 1);
  for (uint32_t i = 0; i < n; ++i) {
    for (const uint32_t d : w.dependencies(i)) dependants[fill[d]++] = i;
  }
  std::vector<uint32_t> ready;
  for (uint32_t i = 0; i < n; ++i) {
    if (waiting[i] == 0) ready.push_back(i);
  }
  size_t done = 0;
  while (!ready.empty()) {
    const uint32_t m = ready.back();
    ready.pop_back();
    ++done;
    for (uint32_t k = dependants_begin[m]; k < dependants_begin[m + 1]; ++k) {
      if (--waiting[dependants[k]] == 0) ready.push_back(dependants[k]);
    }
  }
  if (done == n) return Status::Ok();
  for (uint32_t i = 0; i < n; ++i) {
    if (waiting[i] != 0) {
      return Status::Error("message " + std::to_string(i) + " is in, or waits for, a dependency cycle");
    }
  }
  return Status::Ok();
}

}  // namespace fe
