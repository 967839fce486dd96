#include "topology/path.h"

namespace fe::topo {

std::vector<LinkId> PathLinks(const Graph& graph, const RouteTable& routes, uint32_t src_host,
                              uint32_t dst_host, uint32_t spread) {
  std::vector<LinkId> links;
  if (src_host == dst_host) return links;
  const NodeId src = graph.hosts()[src_host];
  const NodeId dst = graph.hosts()[dst_host];
  PortRef at{src, graph.HostPortTo(src_host, dst_host, spread)};
  if (at.port >= graph.node(src).links.size()) return links;
  // A path through a consistent table never revisits a node: more links than nodes is a loop.
  while (links.size() < graph.nodes().size()) {
    links.push_back(graph.node(at.node).links[at.port]);
    const NodeId next = graph.Peer(at).node;
    if (next == dst) return links;
    if (graph.node(next).kind != NodeKind::kSwitch) break;  // hosts do not forward
    const std::span<const uint16_t> hops = routes.NextHops(next, dst_host);
    if (hops.empty() || hops[0] >= graph.node(next).links.size()) break;
    at = PortRef{next, hops[0]};
  }
  links.clear();
  return links;
}

}  // namespace fe::topo
