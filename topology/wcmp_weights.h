// WCMP weights of one switch: for each destination host, a weight per member of the switch's route
// group towards it, the capacity that member leads to. The capacity of a switch towards a host is
// the sum over its next hops of min(that link's rate, the capacity of the switch behind it), the
// destination's own switch being unbounded (a WCMP route is per destination switch, as a prefix
// is per ToR: the host's link lies on every path and decides no share); a member's weight is
// min(its link's rate, the capacity of the switch behind it). Members of unequal rate, and
// members behind which links failed (the route table leaves dead links out), so get shares in
// proportion to what they carry onwards. Each link counts on its own, as in the WCMP paper's
// two-stage trees: a bottleneck that two members share further down is not found (that would
// take a max-flow per destination).
//
// Like the route table, the weights are kept as runs of consecutive destinations that share them
// (a fat-tree switch has a few), each a slice of one array of cumulative weights.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "topology/graph.h"
#include "topology/routes.h"

namespace fe::topo {

class WcmpWeights {
 public:
  WcmpWeights() = default;
  // Weights in Mb/s; a weight of a member is at least 1, so every member stays in use.
  static WcmpWeights Build(const Graph& graph, const RouteTable& routes, NodeId sw);

  // Cumulative weights of the members of the switch's group towards dst_host, in the group's
  // order (the last is the total); empty where the group has fewer than two members.
  std::span<const uint32_t> CumulativeOf(uint32_t dst_host) const {
    // The last run starting at or before dst_host; the first run starts at host 0.
    size_t lo = 0;
    size_t n = runs_.size();
    while (n > 1) {
      const size_t half = n / 2;
      if (runs_[lo + half].first_dst <= dst_host) lo += half;
      n -= half;
    }
    if (runs_.empty()) return {};
    const Run& r = runs_[lo];
    return {cumulative_.data() + r.begin, r.size};
  }
  size_t num_runs() const { return runs_.size(); }

 private:
  struct Run {
    uint32_t first_dst;
    uint32_t begin;  // in cumulative_
    uint32_t size;
  };
  std::vector<Run> runs_;
  std::vector<uint32_t> cumulative_;
};

}  // namespace fe::topo
