#include "topology/build.h"

#include "topology/fat_tree.h"
#include "topology/field_error.h"
#include "topology/link_class.h"

namespace fe::topo {

StatusOr<Graph> BuildTopology(const fabric_emu::Topology& topology,
                              const std::string& scenario_dir) {
  Graph graph;
  Status s = AddLinkClasses(topology.link_class(), graph);
  if (!s.ok()) return s;
  switch (topology.kind_case()) {
    case fabric_emu::Topology::kFatTree:
      s = AddFatTree(topology.fat_tree(), graph);
      break;
    case fabric_emu::Topology::kClos:
    case fabric_emu::Topology::kRailOptimized:
    case fabric_emu::Topology::kGraph:
      s = FieldError("fat_tree", "the only builder so far");
      break;
    case fabric_emu::Topology::KIND_NOT_SET:
      s = FieldError("fat_tree",
                     "demanded: choose a builder: fat_tree, clos, rail_optimized or graph");
      break;
  }
  if (!s.ok()) return s;
  return graph;
}

}  // namespace fe::topo
