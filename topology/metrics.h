// What a built fabric amounts to: nodes and ports per role, bisection bandwidth,
// oversubscription per tier, diameter, cables, optics and their power. Computed from the graph
// alone (path diversity needs routes: CountShortestPaths in topology/routes.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "topology/graph.h"

namespace fe::topo {

struct RoleCount {
  std::string role;
  uint8_t tier = 0;
  uint64_t nodes = 0;
  uint32_t min_ports = 0;  // ports in use on one node of the role
  uint32_t max_ports = 0;
};

// Switches of one scale-out tier (1 = host-facing): capacity towards lower tiers and higher ones.
struct TierLoad {
  uint8_t tier = 0;
  uint64_t switches = 0;
  double down_bps = 0;
  double up_bps = 0;  // 0 at the top
  // down_bps / up_bps: 2.0 is 2:1 oversubscribed; 0 at the top, which has no up-links.
  double oversubscription() const { return up_bps > 0 ? down_bps / up_bps : 0; }
};

struct MediaCount {
  Media media = Media::kDac;
  uint64_t cables = 0;
  uint64_t optics = 0;  // link ends with a transceiver or optical engine: 2 per optical cable
  double power_w = 0;   // 2 ends x pJ/bit x rate, for every cable of the media
};

struct TopologyMetrics {
  uint64_t hosts = 0;
  uint64_t switches = 0;
  uint64_t links = 0;
  std::vector<RoleCount> roles;  // hosts first, then by tier, then by role name
  double bisection_bps = 0;
  std::vector<TierLoad> tiers;    // scale-out tiers 1.. in order
  uint32_t diameter_links = 0;    // UINT32_MAX: some host cannot reach another
  std::vector<MediaCount> media;  // media in use, in enum order
  double optics_power_w = 0;
  uint64_t optical_engines = 0;
  uint32_t max_ports_per_engine = 0;
};

// Capacity the fabric carries from the first half of the hosts (in index order) to the second:
// the maximum flow, every link carrying its rate each way, hosts not forwarding.
double BisectionBps(const Graph& graph);

// The longest of the shortest paths between two hosts, in links, as hosts send: over the
// scale-up switches inside a domain, over the NICs otherwise. 0 with fewer than two hosts.
uint32_t DiameterLinks(const Graph& graph);

// Per scale-out tier, the down- and up-facing capacity of its switches.
std::vector<TierLoad> TierLoads(const Graph& graph);

TopologyMetrics ComputeMetrics(const Graph& graph);

}  // namespace fe::topo
