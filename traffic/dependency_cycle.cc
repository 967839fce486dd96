#include "traffic/dependency_cycle.h"

#include <algorithm>

namespace fe {

std::vector<uint32_t> DependencyCycle(const Workload& w) {
  const auto n = static_cast<uint32_t>(w.size());
  enum : uint8_t { kNew, kOnPath, kDone };
  std::vector<uint8_t> state(n, kNew);
  // Depth-first along dependencies, iteratively: a chain of a million messages is one path.
  struct Frame {
    uint32_t id;
    uint32_t next;  // index into after of the next dependency to follow
  };
  std::vector<Frame> path;
  for (uint32_t root = 0; root < n; ++root) {
    if (state[root] != kNew) continue;
    state[root] = kOnPath;
    path.push_back(Frame{root, w.after_begin[root]});
    while (!path.empty()) {
      Frame& f = path.back();
      if (f.next == w.after_begin[f.id + 1]) {
        state[f.id] = kDone;
        path.pop_back();
        continue;
      }
      const uint32_t d = w.after[f.next++];
      if (state[d] == kDone) continue;
      if (state[d] == kOnPath) {
        // The path from d to here, then back to d.
        auto it = std::find_if(path.begin(), path.end(), [d](const Frame& x) { return x.id == d; });
        std::vector<uint32_t> cycle;
        for (; it != path.end(); ++it) cycle.push_back(it->id);
        return cycle;
      }
      state[d] = kOnPath;
      path.push_back(Frame{d, w.after_begin[d]});
    }
  }
  return {};
}

}  // namespace fe
