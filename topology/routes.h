// Shortest-path ECMP routes: for every switch and every destination host, the group of local
// egress ports that lie on a shortest path. In a fat-tree these are exactly the up/down paths:
// any up-port while the destination is outside the switch's subtree, the one down-port towards it
// otherwise.
//
// Layout, sized for every (switch, destination) pair of a large fabric and for a lookup per packet
// that stays in cache: a switch sees only a few distinct groups (in a k-ary fat-tree at most k:
// one per down-port plus the set of up-ports), and with hosts numbered by pod and edge the
// destinations that share a group form a few contiguous runs (at most k + 1 in a fat-tree). Each
// switch keeps its runs, sorted by first destination, and the groups' ports lie contiguously in
// one array. A k = 32 fat-tree (8,192 hosts, 1,280 switches) needs under 0.5 MB, which lives in
// a core's cache; a table by (switch, destination) would need 21 MB and miss on every packet.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "topology/graph.h"

namespace fe::topo {

class RouteTable {
 private:
  // Destinations first_dst up to the next run's first_dst share the ports of global `group`.
  struct Run {
    uint32_t first_dst;
    uint32_t group;
  };

 public:
  // Hosts never forward: a path through a host other than the destination is no route.
  // link_up[l] == 0 takes link l out of every route (a failed link); empty: every link is up.
  // It searches once per set of switches that destinations attach to, not once per host
  // (route_build.cc): about 0.4 s of CPU for a k = 64 fat-tree.
  static RouteTable Build(const Graph& graph, std::span<const uint8_t> link_up = {});

  // One switch's routes, looked up without finding the switch first: a switch keeps its own.
  class SwitchRoutes {
   public:
    // Egress ports on shortest paths to host index `dst_host`, in ascending order; empty if the
    // destination cannot be reached.
    std::span<const uint16_t> NextHops(uint32_t dst_host) const {
      // The last run starting at or before dst_host (every switch's first run starts at host 0);
      // branch-free, since the destinations of successive packets are unpredictable.
      const Run* run = runs_;
      for (uint32_t n = num_runs_; n > 1;) {
        const uint32_t half = n / 2;
        run = run[half].first_dst <= dst_host ? run + half : run;
        n -= half;
      }
      return Group(run->group);
    }
    // Calls f(ports) once for each distinct set of egress ports NextHops gives for some
    // destination (unreachable ones included, as empty), in the order of the first destination
    // taking it: a walk over the switch's runs instead of a look-up per destination host.
    template <typename F>
    void ForEachGroup(F&& f) const {
      std::vector<uint32_t> seen;
      for (uint32_t i = 0; i < num_runs_; ++i) {
        const uint32_t g = runs_[i].group;
        if (std::find(seen.begin(), seen.end(), g) != seen.end()) continue;
        seen.push_back(g);
        f(Group(g));
      }
    }

   private:
    friend class RouteTable;
    std::span<const uint16_t> Group(uint32_t g) const {
      const uint32_t begin = group_begin_[g];
      return {ports_ + begin, group_begin_[g + 1] - begin};
    }
    const Run* runs_ = nullptr;
    uint32_t num_runs_ = 0;
    const uint32_t* group_begin_ = nullptr;
    const uint16_t* ports_ = nullptr;
  };

  // The routes of switch `sw`, valid as long as the table lives.
  SwitchRoutes Of(NodeId sw) const {
    assert(sw < switch_slot_.size() && switch_slot_[sw] != kNotASwitch);
    const uint32_t slot = switch_slot_[sw];
    SwitchRoutes r;
    r.runs_ = runs_.data() + first_run_[slot];
    r.num_runs_ = first_run_[slot + 1] - first_run_[slot];
    r.group_begin_ = group_begin_.data();
    r.ports_ = ports_.data();
    return r;
  }

  // Egress ports of switch `sw` on shortest paths to host index `dst_host`, in ascending order;
  // empty if the destination cannot be reached. Valid as long as the table lives.
  std::span<const uint16_t> NextHops(NodeId sw, uint32_t dst_host) const {
    assert(dst_host < num_hosts_);
    return Of(sw).NextHops(dst_host);
  }

  size_t MemoryBytes() const;

  // The most switches a routed path crosses, from any switch a host attaches to up to any
  // destination it reaches (1 if every host pair shares a switch, 0 if no host reaches any):
  // the depth of a per-hop telemetry stack (HPCC's INT) that no path can overflow.
  uint32_t max_switch_hops() const { return max_switch_hops_; }

 private:
  static constexpr uint32_t kNotASwitch = UINT32_MAX;
  uint32_t num_hosts_ = 0;
  uint32_t max_switch_hops_ = 0;
  std::vector<uint32_t> switch_slot_;  // by NodeId: the switch's dense index, or kNotASwitch
  std::vector<uint32_t> first_run_;    // by slot: the switch's first run in runs_; one extra
  std::vector<Run> runs_;
  std::vector<uint32_t> group_begin_;  // by global group: first port in ports_; one extra at end
  std::vector<uint16_t> ports_;        // every switch's distinct groups, back to back
};

// Number of distinct shortest paths from host src_host to host dst_host (host indices) that
// follow the route table's next hops; 1 if src_host == dst_host, 0 if unreachable.
uint64_t CountShortestPaths(const Graph& graph, const RouteTable& routes, uint32_t src_host,
                            uint32_t dst_host);

// Links on the path PathLinks (topology/path.h) walks from host src_host to host dst_host: 0 if
// they are the same host, UINT32_MAX if unreachable. Every routed path the source's port leads
// to has this length, as all next hops lie on shortest paths.
uint32_t ShortestPathLinks(const Graph& graph, const RouteTable& routes, uint32_t src_host,
                           uint32_t dst_host);

}  // namespace fe::topo
