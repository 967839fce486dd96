// Any shape: nodes and links listed one by one, inline or in a file beside the scenario. Hosts are
// numbered in the order they are listed; each has exactly one (scale-out) link, to a switch.
// Switches without a tier get 1 + the fewest switch hops to a host (host-facing switches are 1).
// Nodes keep their listed names; a switch's role is its `role` (default "switch") and its index
// counts the switches of that role in listed order.
#pragma once

#include <string>

#include "core/status.h"
#include "proto/scenario.pb.h"
#include "topology/graph.h"

namespace fe::topo {

// The scenario's graph section into `graph`, which holds the scenario's link classes and no
// nodes yet. Errors name fields under "graph" ("graph.link[3].b: ..."), or for a file
// "graph.file: FILE:LINE: link[3].b: ...".
Status AddExplicitGraph(const fabric_emu::ExplicitGraph& explicit_graph,
                        const std::string& scenario_dir, Graph& graph);

}  // namespace fe::topo
