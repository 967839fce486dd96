// Splits a fabric's nodes into parts that run on different cores: nearby nodes together (a pod
// whole: its hosts, edge and aggregation switches, which exchange most of its frames), parts of
// about equal work, so that few frames cross between cores and no core waits long for another.
#pragma once

#include <cstdint>
#include <vector>

#include "topology/graph.h"

namespace fe::topo {

// The part (0 .. parts-1) of every node, by node id. Groups of nodes that stay together: a pod;
// outside pods, a host with the switch its port 0 leads to and that switch's other hosts; every
// other node alone. Each group weighs its nodes' ports (a frame is an event at each end of a
// link, so a node's events follow its ports), and groups go, heaviest first, to the lightest
// part so far (ties: the lowest part, so the split is a function of the graph alone).
std::vector<uint32_t> PartitionNodes(const Graph& graph, uint32_t parts);

}  // namespace fe::topo
