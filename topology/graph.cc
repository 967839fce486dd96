#include "topology/graph.h"

#include <utility>

namespace fe::topo {

NodeId Graph::AddNode(NodeKind kind, uint8_t tier, int32_t pod, std::string name) {
  const NodeId id = static_cast<NodeId>(nodes_.size());
  nodes_.push_back(Node{kind, tier, pod, std::move(name), {}});
  if (kind == NodeKind::kHost) {
    host_index_.push_back(static_cast<int32_t>(hosts_.size()));
    hosts_.push_back(id);
  } else {
    host_index_.push_back(-1);
  }
  return id;
}

LinkId Graph::Connect(NodeId a, NodeId b, Rate rate, Time delay) {
  const LinkId id = static_cast<LinkId>(links_.size());
  const auto pa = static_cast<uint16_t>(nodes_[a].links.size());
  const auto pb = static_cast<uint16_t>(nodes_[b].links.size());
  nodes_[a].links.push_back(id);
  nodes_[b].links.push_back(id);
  links_.push_back(Link{PortRef{a, pa}, PortRef{b, pb}, rate, delay});
  return id;
}

PortRef Graph::Peer(PortRef local) const {
  const Link& l = links_[nodes_[local.node].links[local.port]];
  return (l.a.node == local.node && l.a.port == local.port) ? l.b : l.a;
}

}  // namespace fe::topo
