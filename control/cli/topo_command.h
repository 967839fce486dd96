// `fabric-emu topo`: builds a scenario's fabric and describes it (text, Graphviz, JSON) without
// running anything.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>

#include "core/status.h"
#include "proto/scenario.pb.h"
#include "topology/graph.h"
#include "topology/metrics.h"

namespace fe::control {

// Shortest paths between two endpoints, as the route tables see them.
struct PathDiversity {
  uint32_t src_host = 0;
  uint32_t dst_host = 0;
  uint64_t paths = 0;  // 0: unreachable
  uint32_t links = 0;  // length of each
};

struct TopoReport {
  topo::TopologyMetrics metrics;
  std::optional<PathDiversity> paths;  // unset: fewer than two endpoints
};

struct TopoOptions {
  std::string scenario_dir;  // where the topology's relative file names start
  std::optional<std::pair<std::string, std::string>> pair;  // endpoints: host index or name
  std::string dot_file;                                     // "-": `out`; empty: none
  std::string json_file;                                    // "-": `out`; empty: none
};

// An endpoint named by host index ("12") or host name ("h12").
StatusOr<uint32_t> FindEndpoint(const topo::Graph& graph, const std::string& name);

// Metrics and paths between the pair (default: host 0 and the last host).
StatusOr<TopoReport> DescribeTopology(
    const topo::Graph& graph, const std::optional<std::pair<std::string, std::string>>& pair);

// The human text `topo` prints.
std::string TopoText(const std::string& scenario_name, const topo::Graph& graph,
                     const TopoReport& report);

// Runs the command on a validated scenario: text on `out` unless the DOT or JSON goes there.
// Returns the exit code; errors go to `err`.
int RunTopo(const fabric_emu::Scenario& scenario, const TopoOptions& options, std::ostream& out,
            std::ostream& err);

}  // namespace fe::control
