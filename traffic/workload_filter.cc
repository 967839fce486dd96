#include "traffic/workload_filter.h"

namespace fe {

Workload LeaveOut(const Workload& w, std::vector<uint8_t> leave_out) {
  const auto n = static_cast<uint32_t>(w.size());
  // Dependants in compressed rows, to carry a leave-out forward through what waits for it.
  std::vector<uint32_t> first(n + 1, 0);
  for (uint32_t i = 0; i < n; ++i) {
    for (const uint32_t d : w.dependencies(i)) ++first[d + 1];
  }
  for (uint32_t i = 0; i < n; ++i) first[i + 1] += first[i];
  std::vector<uint32_t> dependants(w.after.size());
  std::vector<uint32_t> fill(first.begin(), first.end() - 1);
  for (uint32_t i = 0; i < n; ++i) {
    for (const uint32_t d : w.dependencies(i)) dependants[fill[d]++] = i;
  }
  std::vector<uint32_t> stack;
  for (uint32_t i = 0; i < n; ++i) {
    if (leave_out[i] != 0) stack.push_back(i);
  }
  while (!stack.empty()) {
    const uint32_t m = stack.back();
    stack.pop_back();
    for (uint32_t k = first[m]; k < first[m + 1]; ++k) {
      if (leave_out[dependants[k]] == 0) {
        leave_out[dependants[k]] = 1;
        stack.push_back(dependants[k]);
      }
    }
  }
  // Dependencies may name later messages: every kept message's id is known first.
  std::vector<uint32_t> new_id(n, kNoIndex);
  uint32_t kept = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (leave_out[i] == 0) new_id[i] = kept++;
  }
  Workload out;
  out.jobs = w.jobs;
  out.ops = w.ops;
  out.iterations = w.iterations;
  out.requests = w.requests;
  std::vector<uint32_t> deps;
  for (uint32_t i = 0; i < n; ++i) {
    if (leave_out[i] != 0) continue;
    deps.clear();
    // A kept message waits only for kept ones: the others would have left it out.
    for (const uint32_t d : w.dependencies(i)) deps.push_back(new_id[d]);
    out.Add(w.flows[i], deps, w.delay[i], w.job_of[i], w.op_of[i], w.iteration_of[i],
            w.request_of[i]);
  }
  return out;
}

}  // namespace fe
