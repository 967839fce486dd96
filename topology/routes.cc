#include "topology/routes.h"

#include "topology/path.h"

#include <algorithm>
#include <limits>

namespace fe::topo {
namespace {

struct PathCount {
  uint32_t hops = 0;
  uint64_t paths = 0;  // 0: unreachable
};

}  // namespace

size_t RouteTable::MemoryBytes() const {
  return sizeof(*this) + switch_slot_.capacity() * sizeof(uint32_t) +
         first_run_.capacity() * sizeof(uint32_t) + runs_.capacity() * sizeof(Run) +
         group_begin_.capacity() * sizeof(uint32_t) + ports_.capacity() * sizeof(uint16_t);
}

uint64_t CountShortestPaths(const Graph& graph, const RouteTable& routes, uint32_t src_host,
                            uint32_t dst_host) {
  if (src_host == dst_host) return 1;
  const NodeId dst_node = graph.hosts()[dst_host];
  std::vector<PathCount> memo(graph.nodes().size());
  std::vector<bool> done(graph.nodes().size(), false);

  // Paths from a neighbour: the destination itself, or a switch counted by following its next
  // hops (all of equal length, as they lie on shortest paths); other hosts do not forward.
  auto from = [&](auto& self, NodeId n) -> PathCount {
    if (n == dst_node) return {0, 1};
    if (graph.node(n).kind != NodeKind::kSwitch) return {};
    if (done[n]) return memo[n];
    PathCount count;
    for (uint16_t port : routes.NextHops(n, dst_host)) {
      const PathCount next = self(self, graph.Peer({n, port}).node);
      count.hops = next.hops + 1;
      count.paths += next.paths;
    }
    done[n] = true;
    return memo[n] = count;
  };

  // A multi-homed source may reach the fabric through ports of unequal distance: only the
  // nearest ones start shortest paths.
  const NodeId src_node = graph.hosts()[src_host];
  PathCount best{std::numeric_limits<uint32_t>::max(), 0};
  for (uint16_t p = 0; p < graph.node(src_node).links.size(); ++p) {
    const PathCount c = from(from, graph.Peer({src_node, p}).node);
    if (c.paths == 0) continue;
    if (c.hops < best.hops)
      best = c;
    else if (c.hops == best.hops)
      best.paths += c.paths;
  }
  return best.paths;
}

uint32_t ShortestPathLinks(const Graph& graph, const RouteTable& routes, uint32_t src_host,
                           uint32_t dst_host) {
  if (src_host == dst_host) return 0;
  const size_t links = PathLinks(graph, routes, src_host, dst_host).size();
  return links == 0 ? UINT32_MAX : static_cast<uint32_t>(links);
}

}  // namespace fe::topo
