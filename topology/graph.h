// The fabric as a graph: hosts and switches joined by full-duplex links. Ports are numbered per
// node (0..n-1) in the order links were attached; ids are dense so the dataplane can use flat
// arrays indexed by them. No DPDK here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/units.h"

namespace fe::topo {

using NodeId = uint32_t;
using LinkId = uint32_t;

enum class NodeKind : uint8_t { kHost, kSwitch };

struct PortRef {
  NodeId node = 0;
  uint16_t port = 0;  // index among the node's ports
};

struct Node {
  NodeKind kind = NodeKind::kHost;
  // 0 for hosts; switches count up from the edge (1 = ToR/edge, 2 = aggregation, 3 = core).
  uint8_t tier = 0;
  int32_t pod = -1;  // -1 where the node belongs to no pod (core switches)
  std::string name;
  std::vector<LinkId> links;  // links[p] is the link on local port p
};

struct Link {
  PortRef a;
  PortRef b;
  Rate rate;
  Time delay;  // propagation, one way
};

class Graph {
 public:
  NodeId AddNode(NodeKind kind, uint8_t tier, int32_t pod, std::string name);
  // Joins a free port of each node; returns the new link's id.
  LinkId Connect(NodeId a, NodeId b, Rate rate, Time delay);

  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<Link>& links() const { return links_; }
  const Node& node(NodeId id) const { return nodes_[id]; }
  const Link& link(LinkId id) const { return links_[id]; }
  // The far end of the link on (node, port).
  PortRef Peer(PortRef local) const;

  // Hosts are numbered 0..num_hosts()-1 in the order they were added; addresses derive from it.
  const std::vector<NodeId>& hosts() const { return hosts_; }
  size_t num_hosts() const { return hosts_.size(); }
  size_t num_switches() const { return nodes_.size() - hosts_.size(); }
  // Host index of a host node, or -1 for a switch.
  int32_t HostIndex(NodeId id) const { return host_index_[id]; }

 private:
  std::vector<Node> nodes_;
  std::vector<Link> links_;
  std::vector<NodeId> hosts_;
  std::vector<int32_t> host_index_;
};

}  // namespace fe::topo
