// The fabric as a graph: hosts and switches joined by full-duplex links. Ports are numbered per
// node (0..n-1) in the order links were attached; ids are dense so the dataplane can use flat
// arrays indexed by them. No DPDK here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/units.h"

namespace fe::topo {

using NodeId = uint32_t;
using LinkId = uint32_t;

enum class NodeKind : uint8_t { kHost, kSwitch };

// What a cable is made of; it decides the default power per bit.
enum class Media : uint8_t { kDac, kAoc, kPluggable, kLpo, kCpo };

// Credit-based link-level flow control of a class's links (docs/switch-buffers.md, "Credit-based
// links"); the dataplane turns it into cong::CreditParams.
struct CreditFlowControl {
  int64_t buffer_bytes = 0;  // per priority, set aside by each receiver; 0: derived from the link
  Time update_delay = Time::Zero();
  Time resync_period = Time::Zero();
  double update_loss_probability = 0;
};

// A named kind of link that builders reuse: every link records the class it was made from.
struct LinkClass {
  std::string name;
  Rate rate;
  Time delay;  // propagation, one way
  Media media = Media::kDac;
  double pj_per_bit = 0;          // one link end
  uint32_t ports_per_engine = 0;  // CPO: switch ports per optical engine; 0 otherwise
  double bit_error_rate = 0;
  std::optional<CreditFlowControl> credit = std::nullopt;  // unset: PFC
};
using LinkClassId = uint16_t;

struct PortRef {
  NodeId node = 0;
  uint16_t port = 0;  // index among the node's ports
};

// Hosts are endpoints (accelerators): port 0 is the scale-out NIC, ports 1.. (if any) lead to
// the scale-up switches of the host's domain.
struct Node {
  NodeKind kind = NodeKind::kHost;
  // 0 for hosts and scale-up switches; scale-out switches count up from the edge (1 = ToR/leaf/
  // rail, 2 = aggregation/spine, 3 = core/super-spine).
  uint8_t tier = 0;
  int32_t pod = -1;           // -1 where the node belongs to no pod (core switches)
  std::string name;           // role + index: "leaf3", "spine0", "su12", "h5"
  std::vector<LinkId> links;  // links[p] is the link on local port p
  std::string role;           // "host", "edge", "leaf", "spine", "su", ...
  int32_t index = 0;          // among the nodes of its role
  int32_t domain = -1;        // hosts and scale-up switches: the scale-up domain; -1: none
};

struct Link {
  PortRef a;
  PortRef b;
  Rate rate;
  Time delay;  // propagation, one way
  LinkClassId link_class = 0;
};

class Graph {
 public:
  // A switch's role and index come from its name ("leaf3": "leaf", 3); a host's role is "host"
  // and its index its host index.
  NodeId AddNode(NodeKind kind, uint8_t tier, int32_t pod, std::string name);
  // For names that are not role + index (an explicit graph's).
  void SetRole(NodeId id, std::string role, int32_t index);
  void SetDomain(NodeId id, int32_t domain) { nodes_[id].domain = domain; }
  // Joins a free port of each node; returns the new link's id.
  LinkId Connect(NodeId a, NodeId b, Rate rate, Time delay);
  // The same with a class's rate and delay.
  LinkId Connect(NodeId a, NodeId b, LinkClassId link_class);
  LinkClassId AddLinkClass(LinkClass c);

  const std::vector<LinkClass>& link_classes() const { return link_classes_; }

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
  // The port by which host src_host sends to host dst_host: a scale-up port (1..) when both are
  // in one scale-up domain, spread over the domain's switches by `spread` (a message id); else
  // port 0, the scale-out NIC.
  uint16_t HostPortTo(uint32_t src_host, uint32_t dst_host, uint32_t spread = 0) const {
    const Node& src = nodes_[hosts_[src_host]];
    const int32_t domain = nodes_[hosts_[dst_host]].domain;
    if (src.domain < 0 || src.domain != domain || src.links.size() < 2) return 0;
    return static_cast<uint16_t>(1 + spread % (src.links.size() - 1));
  }
  // The node of that name ("leaf3", "h5"), if any.
  std::optional<NodeId> FindNode(std::string_view name) const {
    const auto it = by_name_.find(std::string(name));
    if (it == by_name_.end()) return std::nullopt;
    return it->second;
  }
  // Host index of a host node, or -1 for a switch.
  int32_t HostIndex(NodeId id) const { return host_index_[id]; }

 private:
  std::vector<Node> nodes_;
  std::vector<Link> links_;
  std::vector<NodeId> hosts_;
  std::vector<int32_t> host_index_;
  std::vector<LinkClass> link_classes_;
  std::unordered_map<std::string, NodeId> by_name_;
};

}  // namespace fe::topo
