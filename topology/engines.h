// Co-packaged optics: one optical engine serves several switch ports, so one engine failure takes
// all of them down together (a shared-risk group). A switch's ports on links of a CPO class are
// split, in port order, into engines of the class's ports_per_engine ports.
#pragma once

#include <cstdint>
#include <vector>

#include "topology/graph.h"

namespace fe::topo {

struct OpticalEngine {
  NodeId switch_node = 0;
  uint32_t engine = 0;          // index among the switch's engines
  std::vector<uint16_t> ports;  // the switch's local ports it serves, ascending
};

// Every engine of every switch, by switch then engine index.
std::vector<OpticalEngine> OpticalEngines(const Graph& graph);

}  // namespace fe::topo
