// Maximum flow by Dinic's algorithm (blocking flows on BFS level graphs), iterative throughout so
// that a deep graph cannot overflow the stack.
#pragma once

#include <cstdint>
#include <vector>

namespace fe::topo {

class MaxFlow {
 public:
  explicit MaxFlow(uint32_t num_vertices);
  // A directed arc of the given capacity (and its residual twin of capacity 0).
  void AddArc(uint32_t from, uint32_t to, int64_t capacity);
  // The maximum flow from source to sink; call once.
  int64_t Run(uint32_t source, uint32_t sink);

 private:
  struct Arc {
    uint32_t to;
    int64_t capacity;  // residual
  };
  bool Levels(uint32_t source, uint32_t sink);
  int64_t Augment(uint32_t source, uint32_t sink);

  std::vector<std::vector<uint32_t>> out_;  // by vertex: arc ids; arc ^ 1 is the twin
  std::vector<Arc> arcs_;
  std::vector<int32_t> level_;
  std::vector<uint32_t> next_;  // by vertex: the first arc not yet found dead in this phase
};

}  // namespace fe::topo
