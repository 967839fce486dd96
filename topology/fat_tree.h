// The k-ary fat-tree of Al-Fares et al. (SIGCOMM 2008): k pods, each with k/2 edge (tier 1) and
// k/2 aggregation (tier 2) switches, (k/2)^2 core switches (tier 3) and k^3/4 hosts; every switch
// has exactly k ports, so all links can share one rate and full bisection bandwidth holds.
//
// Numbering, fixed so that addresses, traces and tests can rely on it:
// - Nodes are added hosts first, then edge, aggregation and core switches, each group in index
//   order; names are "h<i>", "edge<i>", "agg<i>", "core<i>" with a global index per group.
// - Host i sits in pod i / (k^2/4) on edge switch i / (k/2), at that switch's port i % (k/2);
//   consecutive hosts share an edge switch.
// - Edge and aggregation switch j of pod p have global index p * (k/2) + j.
// - Every switch numbers its down-facing ports first, then its up-facing ports:
//   edge:  ports [0, k/2) to its hosts, port k/2 + a to aggregation switch a of its pod;
//   agg:   port e to edge switch e of its pod, port k/2 + c to core switch a * (k/2) + c,
//          where a is the aggregation switch's index within its pod;
//   core:  port p to pod p (core switches have no up-facing ports).
#pragma once

#include "core/status.h"
#include "core/units.h"
#include "proto/scenario.pb.h"
#include "topology/graph.h"

namespace fe::topo {

// The largest fabric allowed: 65,536 hosts. Host addresses (198.18.0.0/15) would hold k = 80, but
// nothing larger than k = 64 has been built and run.
inline constexpr int kMaxFatTreeK = 64;

struct FatTreeParams {
  int k = 4;  // ports per switch: even, 2..kMaxFatTreeK
  Rate link_rate = Rate::FromGbps(100);
  Time link_delay = Time::FromNs(1000);  // propagation, one way, same on every link
};

// Builds the fat-tree, or explains why the parameters describe none. Its links are of one class,
// "fat_tree", of the given rate and delay.
StatusOr<Graph> BuildFatTree(const FatTreeParams& params);

// The scenario's fat_tree section into `graph`, which holds the scenario's link classes and no
// nodes yet. Without link_class, a class named "fat_tree" with link_rate_gbps and link_delay_ns
// (media DAC) is added after the scenario's own. Errors name fields under "fat_tree".
Status AddFatTree(const fabric_emu::FatTree& tree, Graph& graph);

}  // namespace fe::topo
