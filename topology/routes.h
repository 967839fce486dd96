// Shortest-path ECMP routes: for every switch and every destination host, the group of local
// egress ports that lie on a shortest path. In a fat-tree these are exactly the up/down paths:
// any up-port while the destination is outside the switch's subtree, the one down-port towards it
// otherwise.
//
// Layout, sized for every (switch, destination) pair of a large fabric: a switch sees only a few
// distinct groups (in a k-ary fat-tree at most k: one per down-port plus the set of up-ports), so
// each pair stores a 16-bit id into its switch's list of distinct groups, and the groups' ports
// lie contiguously in one array. A k = 32 fat-tree (8,192 hosts, 1,280 switches) needs ~21 MB.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "topology/graph.h"

namespace fe::topo {

class RouteTable {
 public:
  // Hosts never forward: a path through a host other than the destination is no route.
  // Requires graph.num_hosts() <= 65,536, so that a switch's distinct groups fit 16-bit ids
  // (a switch has at most one group per destination); the topology builders guarantee it.
  static RouteTable Build(const Graph& graph);

  // Egress ports of switch `sw` on shortest paths to host index `dst_host`, in ascending order;
  // empty if the destination cannot be reached. Valid as long as the table lives.
  std::span<const uint16_t> NextHops(NodeId sw, uint32_t dst_host) const {
    assert(sw < switch_slot_.size() && switch_slot_[sw] != kNotASwitch);
    assert(dst_host < num_hosts_);
    const uint32_t slot = switch_slot_[sw];
    const uint32_t group =
        first_group_[slot] + group_id_[static_cast<size_t>(slot) * num_hosts_ + dst_host];
    return {ports_.data() + group_begin_[group], group_begin_[group + 1] - group_begin_[group]};
  }

  size_t MemoryBytes() const;

 private:
  static constexpr uint32_t kNotASwitch = UINT32_MAX;

  uint32_t num_hosts_ = 0;
  std::vector<uint32_t> switch_slot_;  // by NodeId: the switch's dense index, or kNotASwitch
  std::vector<uint16_t> group_id_;     // [slot * num_hosts_ + dst_host]: id in the switch's list
  std::vector<uint32_t> first_group_;  // by slot: global index of the switch's group 0
  std::vector<uint32_t> group_begin_;  // by global group: first port in ports_; one extra at end
  std::vector<uint16_t> ports_;        // every switch's distinct groups, back to back
};

// Number of distinct shortest paths from host src_host to host dst_host (host indices) that
// follow the route table's next hops; 1 if src_host == dst_host, 0 if unreachable.
uint64_t CountShortestPaths(const Graph& graph, const RouteTable& routes, uint32_t src_host,
                            uint32_t dst_host);

}  // namespace fe::topo

namespace fe::topo {

// Links on a shortest path from host src_host to host dst_host (0 if they are the same host,
// UINT32_MAX if unreachable); every shortest path has this length.
uint32_t ShortestPathLinks(const Graph& graph, const RouteTable& routes, uint32_t src_host,
                           uint32_t dst_host);

}  // namespace fe::topo
