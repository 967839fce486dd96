#include "topology/graph.h"

#include <charconv>
#include <string>
#include <utility>

namespace fe::topo {

NodeId Graph::AddNode(NodeKind kind, uint8_t tier, int32_t pod, std::string name) {
  const NodeId id = static_cast<NodeId>(nodes_.size());
  // A name is role + index ("leaf3"): the role is what precedes the trailing digits.
  size_t digits = name.size();
  while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9') --digits;
  Node node;
  node.kind = kind;
  node.tier = tier;
  node.pod = pod;
  node.name = name;
  if (kind == NodeKind::kHost) {
    node.role = "host";
    node.index = static_cast<int32_t>(hosts_.size());
  } else {
    node.role = name.substr(0, digits);
    // Too many digits for an int32 is no index: a name, not role + index.
    const char* first = node.name.data() + digits;
    if (std::from_chars(first, node.name.data() + node.name.size(), node.index).ec != std::errc()) {
      node.index = 0;
    }
  }
  by_name_.emplace(node.name, id);
  nodes_.push_back(std::move(node));
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

LinkId Graph::Connect(NodeId a, NodeId b, LinkClassId link_class) {
  const LinkClass& c = link_classes_[link_class];
  const LinkId id = Connect(a, b, c.rate, c.delay);
  links_[id].link_class = link_class;
  return id;
}

LinkClassId Graph::AddLinkClass(LinkClass c) {
  link_classes_.push_back(std::move(c));
  return static_cast<LinkClassId>(link_classes_.size() - 1);
}

void Graph::SetRole(NodeId id, std::string role, int32_t index) {
  nodes_[id].role = std::move(role);
  nodes_[id].index = index;
}

PortRef Graph::Peer(PortRef local) const {
  const Link& l = links_[nodes_[local.node].links[local.port]];
  return (l.a.node == local.node && l.a.port == local.port) ? l.b : l.a;
}

}  // namespace fe::topo
