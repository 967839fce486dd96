// Which hosts are near each other: what rank placement and hierarchical collectives ask of the
// topology. A host's locality group is its scale-up domain where the topology has domains (the
// accelerators of one server or supernode, joined by scale-up switches), else the switch its
// scale-out NIC (port 0) attaches to: its ToR, leaf or rail switch.
#pragma once

#include <cstdint>
#include <vector>

#include "topology/graph.h"

namespace fe::topo {

// The locality group of every host, by host index; groups are numbered 0, 1, .. in the order of
// their first host.
std::vector<uint32_t> LocalityGroups(const Graph& graph);

// The lowest level at which two hosts meet: 0 inside one scale-up domain (or the same host), 1
// behind one host-facing switch, 2 inside one pod, 3 beyond. Traffic between hosts at level 2 or
// more crosses the fabric's upper tiers, where oversubscription bites.
uint32_t MeetingLevel(const Graph& graph, uint32_t host_a, uint32_t host_b);

}  // namespace fe::topo
