// The flow completion time a message would have alone in the fabric: the yardstick for slowdown.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/units.h"
#include "topology/graph.h"
#include "topology/routes.h"

namespace fe::control {

// One link of a path, as a message crosses it.
struct PathHop {
  Rate rate;
  Time delay;  // propagation, one way
};

// The path a message's packets take from src_host to dst_host (topo::PathLinks, `spread` its
// member pick), each link at its own rate and delay, into *hops (cleared first).
void PathHopsOf(const topo::Graph& graph, const topo::RouteTable& routes, uint32_t src_host,
                uint32_t dst_host, uint32_t spread, std::vector<PathHop>* hops);

// A message of size_bytes, cut into packets of mtu_payload_bytes (the last one shorter), sent
// back to back by the source over `hops`, each a store-and-forward link: every node forwards a
// packet once it has received all of it, as soon as its link is free. With F_j and T_j the
// serialisation of a full and of the last packet on hop j (frames padded to Ethernet's minimum,
// with preamble and gap), N packets and L hops, the last bit arrives at
//   max over c in 1..L of [ sum_{j<=c} F_j + (N-2) max_{j<=c} F_j + sum_{j>=c} T_j ]
//   + sum_j delay_j                                                        (N >= 2)
//   sum_j T_j + sum_j delay_j                                              (N == 1)
// the longest path of the max-plus recurrence end(p, j) = max(end(p, j-1) + delay_{j-1},
// end(p-1, j)) + serialisation_j(p): the first packet runs to the hop c where the last one
// catches up, the packets in between queue behind the slowest hop up to c (the bottleneck
// pipelines them), and the last one runs from c to the end. Equal links give the familiar
// N F + (L-1) F (full packets) plus L delays. Zero for an empty path.
Time StandaloneFct(uint64_t size_bytes, uint32_t mtu_payload_bytes, std::span<const PathHop> hops);

}  // namespace fe::control
