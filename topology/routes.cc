#include "topology/routes.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace fe::topo {
namespace {

constexpr uint32_t kUnreached = std::numeric_limits<uint32_t>::max();
constexpr NodeId kNoPeer = std::numeric_limits<NodeId>::max();

struct PortListHash {
  size_t operator()(const std::vector<uint16_t>& ports) const {
    uint64_t h = ports.size();
    for (uint16_t p : ports) h = (h ^ p) * 0x100000001b3ULL;  // FNV-1a style step
    return static_cast<size_t>(h);
  }
};

// Distinct groups of one switch while the table is built, and its runs of destinations.
struct GroupSet {
  std::unordered_map<std::vector<uint16_t>, uint32_t, PortListHash> ids;
  std::vector<std::pair<uint32_t, uint32_t>> runs;  // (first destination, id)
  const std::vector<uint16_t>* last = nullptr;      // the ports of the current run

  void Add(uint32_t dst, const std::vector<uint16_t>& ports) {
    // Mostly the same ports as the previous destination: compared before hashing.
    if (last != nullptr && *last == ports) return;
    auto it = ids.find(ports);
    if (it == ids.end()) it = ids.emplace(ports, static_cast<uint32_t>(ids.size())).first;
    runs.emplace_back(dst, it->second);
    last = &it->first;
  }
};

struct PathCount {
  uint32_t hops = 0;
  uint64_t paths = 0;  // 0: unreachable
};

}  // namespace

RouteTable RouteTable::Build(const Graph& graph, std::span<const uint8_t> link_up) {
  const size_t num_nodes = graph.nodes().size();
  RouteTable t;
  t.num_hosts_ = static_cast<uint32_t>(graph.num_hosts());

  // Peers as flat arrays: the BFS below runs once per host and must not chase link records.
  std::vector<uint32_t> adj_begin(num_nodes + 1, 0);
  std::vector<NodeId> adj;
  adj.reserve(2 * graph.links().size());
  std::vector<NodeId> switches;
  t.switch_slot_.assign(num_nodes, kNotASwitch);
  for (NodeId n = 0; n < num_nodes; ++n) {
    const Node& node = graph.node(n);
    // A dead link keeps its port's slot (ports are indexed from adj_begin) but leads nowhere.
    for (uint16_t p = 0; p < node.links.size(); ++p) {
      const bool up = link_up.empty() || link_up[node.links[p]] != 0;
      adj.push_back(up ? graph.Peer({n, p}).node : kNoPeer);
    }
    adj_begin[n + 1] = static_cast<uint32_t>(adj.size());
    if (node.kind == NodeKind::kSwitch) {
      t.switch_slot_[n] = static_cast<uint32_t>(switches.size());
      switches.push_back(n);
    }
  }

  std::vector<GroupSet> sets(switches.size());
  std::vector<uint32_t> dist(num_nodes);
  std::vector<NodeId> queue;
  queue.reserve(num_nodes);
  std::vector<uint16_t> ports;
  for (uint32_t dst = 0; dst < t.num_hosts_; ++dst) {
    // Breadth-first from the destination across switches only, since hosts do not forward.
    const NodeId dst_node = graph.hosts()[dst];
    std::fill(dist.begin(), dist.end(), kUnreached);
    dist[dst_node] = 0;
    queue.assign(1, dst_node);
    for (size_t head = 0; head < queue.size(); ++head) {
      const NodeId n = queue[head];
      for (uint32_t i = adj_begin[n]; i < adj_begin[n + 1]; ++i) {
        const NodeId peer = adj[i];
        if (peer != kNoPeer && dist[peer] == kUnreached && t.switch_slot_[peer] != kNotASwitch) {
          dist[peer] = dist[n] + 1;
          queue.push_back(peer);
        }
      }
    }
    for (uint32_t slot = 0; slot < switches.size(); ++slot) {
      const NodeId sw = switches[slot];
      ports.clear();
      if (dist[sw] != kUnreached) {
        for (uint32_t i = adj_begin[sw]; i < adj_begin[sw + 1]; ++i) {
          if (adj[i] != kNoPeer && dist[adj[i]] == dist[sw] - 1) {
            ports.push_back(static_cast<uint16_t>(i - adj_begin[sw]));
          }
        }
      }
      sets[slot].Add(dst, ports);
    }
  }

  // Lay each switch's groups out in id order, and its runs after the previous switch's.
  t.group_begin_.push_back(0);
  t.first_run_.push_back(0);
  for (const GroupSet& set : sets) {
    const auto first_group = static_cast<uint32_t>(t.group_begin_.size() - 1);
    std::vector<const std::vector<uint16_t>*> by_id(set.ids.size());
    for (const auto& [group, id] : set.ids) by_id[id] = &group;
    for (const std::vector<uint16_t>* group : by_id) {
      t.ports_.insert(t.ports_.end(), group->begin(), group->end());
      t.group_begin_.push_back(static_cast<uint32_t>(t.ports_.size()));
    }
    for (const auto& [first_dst, id] : set.runs)
      t.runs_.push_back(Run{first_dst, first_group + id});
    t.first_run_.push_back(static_cast<uint32_t>(t.runs_.size()));
  }
  t.group_begin_.shrink_to_fit();
  t.ports_.shrink_to_fit();
  t.runs_.shrink_to_fit();
  return t;
}

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

}  // namespace fe::topo

namespace fe::topo {

uint32_t ShortestPathLinks(const Graph& graph, const RouteTable& routes, uint32_t src_host,
                           uint32_t dst_host) {
  if (src_host == dst_host) return 0;
  const NodeId dst_node = graph.hosts()[dst_host];
  NodeId n = graph.Peer({graph.hosts()[src_host], 0}).node;
  uint32_t links = 1;
  while (n != dst_node) {
    if (graph.node(n).kind != NodeKind::kSwitch) return UINT32_MAX;
    const std::span<const uint16_t> next = routes.NextHops(n, dst_host);
    if (next.empty()) return UINT32_MAX;
    n = graph.Peer({n, next[0]}).node;
    ++links;
  }
  return links;
}

}  // namespace fe::topo
