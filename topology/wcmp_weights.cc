#include "topology/wcmp_weights.h"

#include <algorithm>
#include <limits>

namespace fe::topo {

namespace {

constexpr uint64_t kUnbounded = std::numeric_limits<uint64_t>::max();

uint64_t Mbps(Rate r) { return static_cast<uint64_t>(r.bps() / 1'000'000); }

// Capacity of nodes towards one destination, each computed once (stamped with the destination).
class Capacity {
 public:
  Capacity(const Graph& graph, const RouteTable& routes)
      : graph_(graph),
        routes_(routes),
        memo_(graph.nodes().size()),
        stamp_(graph.nodes().size(), UINT32_MAX) {}

  void SetDestination(uint32_t dst_host) {
    dst_host_ = dst_host;
    dst_node_ = graph_.hosts()[dst_host];
  }

  // Mb/s node n can carry to the destination; shortest-path next hops never loop back, so the
  // recursion ends.
  // The destination's own switch is unbounded: the host's link is on every path.
  uint64_t Of(NodeId n) {
    if (graph_.node(n).kind != NodeKind::kSwitch) return 0;  // hosts never forward
    if (stamp_[n] == dst_host_) return memo_[n];
    uint64_t sum = 0;
    for (const uint16_t p : routes_.NextHops(n, dst_host_)) {
      const NodeId peer = PeerOf(n, p);
      sum = peer == dst_node_ ? kUnbounded : sum + std::min(RateOf(n, p), Of(peer));
      if (sum == kUnbounded) break;
    }
    stamp_[n] = dst_host_;
    memo_[n] = sum;
    return sum;
  }

  // What port p of node n carries onwards: its link's rate or less.
  uint64_t MemberOf(NodeId n, uint16_t p) {
    const NodeId peer = PeerOf(n, p);
    return peer == dst_node_ ? RateOf(n, p) : std::min(RateOf(n, p), Of(peer));
  }

 private:
  NodeId PeerOf(NodeId n, uint16_t p) const {
    const Link& link = graph_.link(graph_.node(n).links[p]);
    return link.a.node == n && link.a.port == p ? link.b.node : link.a.node;
  }
  uint64_t RateOf(NodeId n, uint16_t p) const {
    return Mbps(graph_.link(graph_.node(n).links[p]).rate);
  }

  const Graph& graph_;
  const RouteTable& routes_;
  std::vector<uint64_t> memo_;
  std::vector<uint32_t> stamp_;
  uint32_t dst_host_ = 0;
  NodeId dst_node_ = 0;
};

}  // namespace

WcmpWeights WcmpWeights::Build(const Graph& graph, const RouteTable& routes, NodeId sw) {
  WcmpWeights w;
  Capacity capacity(graph, routes);
  std::vector<uint32_t> cumulative;
  for (uint32_t dst = 0; dst < graph.num_hosts(); ++dst) {
    cumulative.clear();
    const std::span<const uint16_t> group = routes.NextHops(sw, dst);
    if (group.size() > 1) {
      capacity.SetDestination(dst);
      uint64_t total = 0;
      for (const uint16_t p : group) {
        const uint64_t member = std::clamp<uint64_t>(capacity.MemberOf(sw, p), 1, UINT32_MAX);
        total = std::min<uint64_t>(total + member, UINT32_MAX);
        cumulative.push_back(static_cast<uint32_t>(total));
      }
    }
    // A new run where the weights differ from the last run's.
    if (!w.runs_.empty()) {
      const Run& last = w.runs_.back();
      if (std::equal(cumulative.begin(), cumulative.end(), w.cumulative_.begin() + last.begin,
                     w.cumulative_.begin() + last.begin + last.size)) {
        continue;
      }
    }
    w.runs_.push_back(Run{dst, static_cast<uint32_t>(w.cumulative_.size()),
                          static_cast<uint32_t>(cumulative.size())});
    w.cumulative_.insert(w.cumulative_.end(), cumulative.begin(), cumulative.end());
  }
  return w;
}

}  // namespace fe::topo
