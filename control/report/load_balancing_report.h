// What the switches' load balancing did over a run: for each switch, each route group of two or
// more ports its routes use (a fat-tree's up-ports: its uplink group), the utilisation of every
// member over the run, the group's imbalance and the flows that moved onto its members at new
// flowlets. summary.json carries it as "load_balancing" (docs/load-balancing.md).
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "congestion/load_balancing_config.h"
#include "control/emulation/emulation.h"
#include "core/units.h"
#include "topology/graph.h"

namespace fe::control {

struct UplinkGroupStats {
  topo::NodeId node = 0;
  cong::LbPolicy policy = cong::LbPolicy::kHash;  // the switch's
  std::vector<uint16_t> ports;                    // local ports, in the route group's order
  std::vector<double> utilisation;                // by member: time serialising / run time
  // Highest member utilisation over the mean (1: even); 0 when the group carried nothing.
  double imbalance = 0;
  uint64_t flowlet_changes = 0;
};

// Every switch's groups under the fabric's current routes, switch by switch, each switch's in
// the order of the first destination that uses them. run_time > 0.
std::vector<UplinkGroupStats> UplinkGroups(const Emulation& e, Time run_time);

nlohmann::ordered_json LoadBalancingJson(const Emulation& e);

}  // namespace fe::control
