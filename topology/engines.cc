#include "topology/engines.h"

#include <algorithm>

namespace fe::topo {

std::vector<OpticalEngine> OpticalEngines(const Graph& graph) {
  std::vector<OpticalEngine> engines;
  for (NodeId n = 0; n < graph.nodes().size(); ++n) {
    const Node& node = graph.node(n);
    if (node.kind != NodeKind::kSwitch) continue;
    // Engines fill in port order, one class at a time: ports of different CPO classes never
    // share an engine.
    std::vector<OpticalEngine> open(graph.link_classes().size());
    uint32_t next_engine = 0;
    for (uint16_t p = 0; p < node.links.size(); ++p) {
      const LinkClassId id = graph.link(node.links[p]).link_class;
      if (id >= graph.link_classes().size()) continue;
      const LinkClass& c = graph.link_classes()[id];
      if (c.media != Media::kCpo || c.ports_per_engine == 0) continue;
      OpticalEngine& e = open[id];
      if (e.ports.empty()) e = OpticalEngine{n, next_engine++, {}};
      e.ports.push_back(p);
      if (e.ports.size() == c.ports_per_engine) {
        engines.push_back(std::move(e));
        e = OpticalEngine{};
      }
    }
    // Partly filled engines, in the order they were opened.
    std::vector<OpticalEngine> partial;
    for (OpticalEngine& e : open) {
      if (!e.ports.empty()) partial.push_back(std::move(e));
    }
    std::sort(partial.begin(), partial.end(),
              [](const OpticalEngine& a, const OpticalEngine& b) { return a.engine < b.engine; });
    for (OpticalEngine& e : partial) engines.push_back(std::move(e));
  }
  // By switch, then engine index.
  std::stable_sort(
      engines.begin(), engines.end(), [](const OpticalEngine& a, const OpticalEngine& b) {
        return a.switch_node != b.switch_node ? a.switch_node < b.switch_node : a.engine < b.engine;
      });
  return engines;
}

}  // namespace fe::topo
