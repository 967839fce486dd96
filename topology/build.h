// The graph a scenario's topology section describes: the one place that turns the proto's
// builders, link classes and scale-up domains into a Graph. The validator and the run both call
// it, so a rule about a topology lives in its builder and nowhere else.
#pragma once

#include <string>

#include "core/status.h"
#include "proto/scenario.pb.h"
#include "topology/graph.h"

namespace fe::topo {

// Builds the graph, or explains why the section describes none. An error reads
// "<field path inside Topology>: <reason>", e.g. "clos.tier[1].down_links: must be ...", so that
// the validator can point at the file's line. Relative file names start at scenario_dir.
StatusOr<Graph> BuildTopology(const fabric_emu::Topology& topology,
                              const std::string& scenario_dir);

}  // namespace fe::topo
