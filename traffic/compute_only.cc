#include "traffic/compute_only.h"

#include <algorithm>

namespace fe {

std::vector<Time> ComputeOnlyStarts(const Workload& w) {
  const auto n = static_cast<uint32_t>(w.size());
  std::vector<Time> start(n);
  // Generators add dependencies before their dependants, so one pass in id order settles most
  // messages; a message waiting for a later id (trace files refer forward) is settled by
  // further passes, at most one per forward reference on a chain.
  std::vector<bool> settled(n, false);
  for (uint32_t remaining = n; remaining > 0;) {
    const uint32_t before = remaining;
    for (uint32_t i = 0; i < n; ++i) {
      if (settled[i]) continue;
      const auto deps = w.dependencies(i);
      if (!std::all_of(deps.begin(), deps.end(), [&](uint32_t d) { return settled[d]; })) {
        continue;
      }
      Time t = w.flows[i].start;
      for (const uint32_t d : deps) t = std::max(t, start[d] + w.delay[i]);
      start[i] = t;
      settled[i] = true;
      --remaining;
    }
    if (remaining == before) break;  // a cycle: CheckDependencies refuses such a workload
  }
  return start;
}

}  // namespace fe
