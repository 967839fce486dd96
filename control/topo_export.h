// The fabric as Graphviz DOT and as JSON, for `fabric-emu topo --dot/--json`.
#pragma once

#include <string>

#include "control/topo_command.h"
#include "topology/graph.h"

namespace fe::control {

// An undirected graph, one rank per tier (hosts at the bottom), parallel links drawn once with
// their count; valid DOT for any size of graph.
std::string TopoDot(const topo::Graph& graph);

// {"scenario", "summary": the figures of the text, "link_classes", "nodes", "links"}.
std::string TopoJson(const std::string& scenario_name, const topo::Graph& graph,
                     const TopoReport& report);

}  // namespace fe::control
