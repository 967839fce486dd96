#include "topology/metrics.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <map>
#include <tuple>

#include "topology/engines.h"
#include "topology/max_flow.h"

namespace fe::topo {
namespace {

constexpr uint32_t kUnreached = std::numeric_limits<uint32_t>::max();

}  // namespace

double BisectionBps(const Graph& graph) {
  const size_t hosts = graph.num_hosts();
  if (hosts < 2) return 0;
  const auto n = static_cast<uint32_t>(graph.nodes().size());
  const uint32_t source = n, sink = n + 1;
  // Sending hosts only send and receiving hosts only receive, so no flow passes through a host.
  auto side = [&](NodeId id) {
    const int32_t h = graph.HostIndex(id);
    if (h < 0) return 0;
    return static_cast<size_t>(h) < hosts / 2 ? -1 : 1;
  };
  MaxFlow flow(n + 2);
  for (const Link& l : graph.links()) {
    const int sa = side(l.a.node), sb = side(l.b.node);
    if (sa <= 0 && sb >= 0) flow.AddArc(l.a.node, l.b.node, l.rate.bps());
    if (sb <= 0 && sa >= 0) flow.AddArc(l.b.node, l.a.node, l.rate.bps());
  }
  const int64_t unlimited = std::numeric_limits<int64_t>::max() / 4;
  for (size_t h = 0; h < hosts; ++h) {
    if (h < hosts / 2) {
      flow.AddArc(source, graph.hosts()[h], unlimited);
    } else {
      flow.AddArc(graph.hosts()[h], sink, unlimited);
    }
  }
  return static_cast<double>(flow.Run(source, sink));
}

uint32_t DiameterLinks(const Graph& graph) {
  const size_t num_nodes = graph.nodes().size();
  if (graph.num_hosts() < 2) return 0;
  // Scale-out attachment switch (the NIC's peer) of each host; per such switch, the one domain
  // all its hosts share (-1 none, -2 several) and how many hosts it has.
  constexpr int32_t kMixed = -2;
  std::vector<int32_t> shared_domain(num_nodes, 0);
  std::vector<uint32_t> hosts_on(num_nodes, 0);
  std::vector<NodeId> attach;
  bool cross_domain = false;  // two hosts in different domains (or without one) exist
  const int32_t first_domain = graph.node(graph.hosts()[0]).domain;
  for (NodeId h : graph.hosts()) {
    const Node& host = graph.node(h);
    if (host.domain < 0 || host.domain != first_domain) cross_domain = true;
    if (host.links.empty()) return kUnreached;
    const NodeId sw = graph.Peer({h, 0}).node;
    if (hosts_on[sw]++ == 0) {
      attach.push_back(sw);
      shared_domain[sw] = host.domain;
    } else if (shared_domain[sw] != host.domain || host.domain < 0) {
      shared_domain[sw] = kMixed;
    }
  }
  // Every pair of hosts in one domain is two links apart, through a scale-up switch.
  if (!cross_domain) return 2;
  auto pair_crosses = [&](NodeId a, NodeId b) {
    if (a == b) return hosts_on[a] > 1 && shared_domain[a] == kMixed;
    return shared_domain[a] == kMixed || shared_domain[b] == kMixed ||
           shared_domain[a] != shared_domain[b] || shared_domain[a] < 0;
  };
  // Switch-to-switch adjacency: hosts do not forward.
  std::vector<NodeId> switches;
  std::vector<uint32_t> adj_begin(num_nodes + 1, 0);
  std::vector<NodeId> adj;
  for (NodeId u = 0; u < num_nodes; ++u) {
    const Node& node = graph.node(u);
    if (node.kind == NodeKind::kSwitch) {
      switches.push_back(u);
      for (uint16_t p = 0; p < node.links.size(); ++p) {
        const NodeId v = graph.Peer({u, p}).node;
        if (graph.node(v).kind == NodeKind::kSwitch) adj.push_back(v);
      }
    }
    adj_begin[u + 1] = static_cast<uint32_t>(adj.size());
  }

  // Breadth-first from 64 attachment switches at once: bit b of a node's mask stands for source
  // first + b, so one sweep over the links per level serves 64 searches.
  uint32_t diameter = 0;
  std::vector<uint64_t> seen(num_nodes), frontier(num_nodes), next(num_nodes);
  for (size_t first = 0; first < attach.size(); first += 64) {
    const size_t batch = std::min<size_t>(64, attach.size() - first);
    std::fill(seen.begin(), seen.end(), 0);
    std::fill(frontier.begin(), frontier.end(), 0);
    // Sources whose hosts meet hosts on `to` over the NICs, `links` switch hops apart.
    auto record = [&](NodeId to, uint64_t bits, uint32_t links) {
      for (; bits != 0; bits &= bits - 1) {
        if (pair_crosses(attach[first + std::countr_zero(bits)], to)) {
          diameter = std::max(diameter, links + 2);
        }
      }
    };
    for (size_t b = 0; b < batch; ++b) {
      seen[attach[first + b]] |= uint64_t{1} << b;
      frontier[attach[first + b]] |= uint64_t{1} << b;
    }
    for (size_t b = 0; b < batch; ++b) record(attach[first + b], uint64_t{1} << b, 0);
    for (uint32_t level = 1;; ++level) {
      bool grew = false;
      for (NodeId v : switches) {
        uint64_t in = 0;
        for (uint32_t i = adj_begin[v]; i < adj_begin[v + 1]; ++i) in |= frontier[adj[i]];
        next[v] = in & ~seen[v];
      }
      for (NodeId v : switches) {
        if (next[v] == 0) continue;
        grew = true;
        seen[v] |= next[v];
        if (hosts_on[v] > 0) record(v, next[v], level);
      }
      if (!grew) break;
      std::swap(frontier, next);
    }
    const uint64_t all = batch == 64 ? ~uint64_t{0} : (uint64_t{1} << batch) - 1;
    for (NodeId to : attach) {
      for (uint64_t missing = all & ~seen[to]; missing != 0; missing &= missing - 1) {
        if (pair_crosses(attach[first + std::countr_zero(missing)], to)) return kUnreached;
      }
    }
  }
  // Hosts of one domain that share no scale-out switch still meet through the scale-up fabric.
  return std::max<uint32_t>(diameter, 2);
}

std::vector<TierLoad> TierLoads(const Graph& graph) {
  std::map<uint8_t, TierLoad> by_tier;
  for (NodeId n = 0; n < graph.nodes().size(); ++n) {
    const Node& node = graph.node(n);
    if (node.kind != NodeKind::kSwitch || node.tier == 0) continue;
    TierLoad& t = by_tier[node.tier];
    t.tier = node.tier;
    ++t.switches;
    for (uint16_t p = 0; p < node.links.size(); ++p) {
      const uint8_t peer_tier = graph.node(graph.Peer({n, p}).node).tier;
      const auto bps = static_cast<double>(graph.link(node.links[p]).rate.bps());
      if (peer_tier < node.tier) t.down_bps += bps;
      if (peer_tier > node.tier) t.up_bps += bps;
    }
  }
  std::vector<TierLoad> out;
  for (const auto& [tier, load] : by_tier) out.push_back(load);
  return out;
}

TopologyMetrics ComputeMetrics(const Graph& graph) {
  TopologyMetrics m;
  m.hosts = graph.num_hosts();
  m.switches = graph.num_switches();
  m.links = graph.links().size();

  // Hosts first, then by tier and role.
  std::map<std::tuple<bool, uint8_t, std::string>, RoleCount> roles;
  for (const Node& node : graph.nodes()) {
    const bool is_switch = node.kind == NodeKind::kSwitch;
    RoleCount& r = roles[{is_switch, node.tier, node.role}];
    const auto ports = static_cast<uint32_t>(node.links.size());
    if (r.nodes == 0) {
      r.role = node.role;
      r.tier = node.tier;
      r.min_ports = r.max_ports = ports;
    }
    ++r.nodes;
    r.min_ports = std::min(r.min_ports, ports);
    r.max_ports = std::max(r.max_ports, ports);
  }
  for (auto& [key, r] : roles) m.roles.push_back(std::move(r));

  m.bisection_bps = BisectionBps(graph);
  m.tiers = TierLoads(graph);
  m.diameter_links = DiameterLinks(graph);

  std::map<Media, MediaCount> media;
  const LinkClass unclassed;  // links made by rate and delay alone: copper, no power of its own
  for (const Link& l : graph.links()) {
    const LinkClass& c =
        l.link_class < graph.link_classes().size() ? graph.link_classes()[l.link_class] : unclassed;
    MediaCount& mc = media[c.media];
    mc.media = c.media;
    ++mc.cables;
    if (c.media != Media::kDac) mc.optics += 2;
    // pJ/bit x bit/s = 1e-12 W per end.
    mc.power_w += 2 * c.pj_per_bit * 1e-12 * static_cast<double>(l.rate.bps());
  }
  for (const auto& [kind, mc] : media) {
    m.media.push_back(mc);
    m.optics_power_w += mc.power_w;
  }

  const std::vector<OpticalEngine> engines = OpticalEngines(graph);
  m.optical_engines = engines.size();
  for (const OpticalEngine& e : engines) {
    m.max_ports_per_engine = std::max<uint32_t>(m.max_ports_per_engine, e.ports.size());
  }
  return m;
}

}  // namespace fe::topo
