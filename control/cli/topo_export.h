// The fabric as Graphviz DOT and as JSON, for `fabric-emu topo --dot/--json`.
#pragma once

#include <ostream>
#include <string>

#include "control/cli/topo_command.h"
#include "topology/graph.h"

namespace fe::control {

// An undirected graph, one rank per tier (hosts at the bottom), parallel links drawn once with
// their count; valid DOT for any size of graph.
void WriteTopoDot(const topo::Graph& graph, std::ostream& out);

// {"scenario", "summary": the figures of the text, "link_classes", "nodes", "links"}, one node
// or link per line.
void WriteTopoJson(const std::string& scenario_name, const topo::Graph& graph,
                   const TopoReport& report, std::ostream& out);

}  // namespace fe::control
