#include "topology/build.h"

#include "topology/clos.h"
#include "topology/explicit_graph.h"
#include "topology/fat_tree.h"
#include "topology/field_error.h"
#include "topology/link_class.h"
#include "topology/rail_optimized.h"
#include "topology/scale_up.h"

namespace fe::topo {
namespace {

Status AddScaleOut(const fabric_emu::Topology& topology, const std::string& scenario_dir,
                   Graph& graph) {
  switch (topology.kind_case()) {
    case fabric_emu::Topology::kFatTree:
      return AddFatTree(topology.fat_tree(), graph);
    case fabric_emu::Topology::kClos:
      return AddClos(topology.clos(), graph);
    case fabric_emu::Topology::kRailOptimized:
      return AddRailOptimized(topology.rail_optimized(), graph);
    case fabric_emu::Topology::kGraph:
      return AddExplicitGraph(topology.graph(), scenario_dir, graph);
    case fabric_emu::Topology::KIND_NOT_SET:
      break;
  }
  return FieldError("fat_tree",
                    "demanded: choose a builder: fat_tree, clos, rail_optimized or graph");
}

}  // namespace

StatusOr<Graph> BuildTopology(const fabric_emu::Topology& topology,
                              const std::string& scenario_dir) {
  Graph graph;
  Status s = AddLinkClasses(topology.link_class(), graph);
  if (!s.ok()) return s;
  s = AddScaleOut(topology, scenario_dir, graph);
  if (!s.ok()) return s;
  if (topology.has_scale_up()) {
    s = AddScaleUp(topology.scale_up(), graph);
    if (!s.ok()) return s;
  }
  return graph;
}

}  // namespace fe::topo
