#include "topology/locality.h"

#include <unordered_map>

namespace fe::topo {
namespace {

// The switch a host's NIC attaches to (the host itself if its NIC is not connected).
NodeId AttachedSwitch(const Graph& graph, uint32_t host) {
  const NodeId id = graph.hosts()[host];
  const Node& n = graph.node(id);
  if (n.links.empty()) return id;
  return graph.Peer(PortRef{id, 0}).node;
}

}  // namespace

std::vector<uint32_t> LocalityGroups(const Graph& graph) {
  std::vector<uint32_t> group(graph.num_hosts());
  // Keys: a domain d as d, a switch s as (1 << 32) + s, so the two never collide.
  std::unordered_map<uint64_t, uint32_t> index;
  for (uint32_t h = 0; h < graph.num_hosts(); ++h) {
    const int32_t domain = graph.node(graph.hosts()[h]).domain;
    const uint64_t key = domain >= 0 ? static_cast<uint64_t>(domain)
                                     : (uint64_t{1} << 32) + AttachedSwitch(graph, h);
    group[h] = index.emplace(key, static_cast<uint32_t>(index.size())).first->second;
  }
  return group;
}

uint32_t MeetingLevel(const Graph& graph, uint32_t host_a, uint32_t host_b) {
  if (host_a == host_b) return 0;
  const Node& a = graph.node(graph.hosts()[host_a]);
  const Node& b = graph.node(graph.hosts()[host_b]);
  if (a.domain >= 0 && a.domain == b.domain) return 0;
  if (AttachedSwitch(graph, host_a) == AttachedSwitch(graph, host_b)) return 1;
  return a.pod == b.pod ? 2 : 3;
}

}  // namespace fe::topo
