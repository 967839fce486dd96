#include "topology/max_flow.h"

#include <algorithm>
#include <limits>

namespace fe::topo {

MaxFlow::MaxFlow(uint32_t num_vertices) : out_(num_vertices) {}

void MaxFlow::AddArc(uint32_t from, uint32_t to, int64_t capacity) {
  out_[from].push_back(static_cast<uint32_t>(arcs_.size()));
  arcs_.push_back({to, capacity});
  out_[to].push_back(static_cast<uint32_t>(arcs_.size()));
  arcs_.push_back({from, 0});
}

bool MaxFlow::Levels(uint32_t source, uint32_t sink) {
  level_.assign(out_.size(), -1);
  std::vector<uint32_t> queue{source};
  level_[source] = 0;
  for (size_t head = 0; head < queue.size(); ++head) {
    const uint32_t u = queue[head];
    for (uint32_t a : out_[u]) {
      if (arcs_[a].capacity > 0 && level_[arcs_[a].to] < 0) {
        level_[arcs_[a].to] = level_[u] + 1;
        queue.push_back(arcs_[a].to);
      }
    }
  }
  return level_[sink] >= 0;
}

// One blocking flow: depth-first along the level graph with an explicit stack of arcs; a vertex
// with no way on is cut out of the phase (its level set to -1).
int64_t MaxFlow::Augment(uint32_t source, uint32_t sink) {
  int64_t total = 0;
  std::vector<uint32_t> path;  // arcs from the source
  uint32_t u = source;
  while (true) {
    if (u == sink) {
      int64_t push = std::numeric_limits<int64_t>::max();
      for (uint32_t a : path) push = std::min(push, arcs_[a].capacity);
      for (uint32_t a : path) {
        arcs_[a].capacity -= push;
        arcs_[a ^ 1].capacity += push;
      }
      total += push;
      path.clear();
      u = source;
      continue;
    }
    bool advanced = false;
    for (; next_[u] < out_[u].size(); ++next_[u]) {
      const uint32_t a = out_[u][next_[u]];
      const uint32_t v = arcs_[a].to;
      if (arcs_[a].capacity > 0 && level_[v] == level_[u] + 1) {
        path.push_back(a);
        u = v;
        advanced = true;
        break;
      }
    }
    if (advanced) continue;
    if (u == source) return total;
    level_[u] = -1;  // a dead end for the rest of the phase
    const uint32_t back = path.back();
    path.pop_back();
    u = arcs_[back ^ 1].to;
  }
}

int64_t MaxFlow::Run(uint32_t source, uint32_t sink) {
  int64_t flow = 0;
  while (Levels(source, sink)) {
    next_.assign(out_.size(), 0);
    flow += Augment(source, sink);
  }
  return flow;
}

}  // namespace fe::topo
