// The state a switch keeps to balance load over its route groups under a policy other than hash
// ECMP (congestion/load_balancing_config.h), and the choice itself, in two steps: Peek, a
// read-only guess of the member a packet will take, which the prefetch stage may call ahead of the
// packet; and Pick, the choice that counts, which updates the state (flowlet table, round-robin
// turns, port loads). Memory is bounded: a flowlet table of a fixed size, a few words per port, and
// under `weighted` the switch's WCMP weights.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "congestion/ecmp_hash.h"
#include "congestion/load_balancing_config.h"
#include "core/random.h"
#include "core/units.h"
#include "dataplane/egress_port_array.h"
#include "dataplane/queue_slots.h"
#include "topology/graph.h"
#include "topology/routes.h"
#include "topology/wcmp_weights.h"

namespace fe::dp {

class LoadBalancer {
 public:
  // `graph` (weighted only) must outlive the balancer; `ports` are the switch's.
  LoadBalancer(const cong::LbConfig& config, EgressPortSpan ports, uint64_t random_seed,
               const topo::Graph* graph, topo::NodeId node);

  // Under `weighted`, recomputes the weights for these routes (reconvergence after a failure).
  void SetRoutes(const topo::RouteTable& routes);

  // The member `flow_hash`'s next packet to dst_host would take now: the flowlet's current
  // member, or the hash's where no state decides it. Changes nothing.
  uint16_t Peek(std::span<const uint16_t> group, uint32_t flow_hash, uint32_t dst_host,
                Time now) const;
  // The member it takes; `queue` is the packet's egress queue (adaptive reads its length).
  uint16_t Pick(std::span<const uint16_t> group, uint32_t flow_hash, uint32_t dst_host,
                QueueId queue, Time now);

  // Times a flow moved to port `port` after an idle gap from another member (flowlet and
  // adaptive per flowlet).
  uint64_t flowlet_changes(uint16_t port) const { return flowlet_changes_[port]; }
  const cong::LbConfig& config() const { return config_; }

 private:
  int Weighted(std::span<const uint16_t> group, uint32_t flow_hash, uint32_t dst_host) const;
  // The member of least quality; ties go to the first from a start the flow hash gives, so that
  // flows meeting equal members spread over them, and per packet from the flow's turn, so that a
  // flow's packets meeting equal members spread over them too.
  int LeastLoaded(std::span<const uint16_t> group, uint32_t flow_hash, QueueId queue, Time now);
  int Spray(std::span<const uint16_t> group, uint32_t flow_hash);
  // The flow's next member in turn: each of its packets on the member after its last one's,
  // starting from the hash's member, so that every flow spreads evenly over the group whatever
  // other flows send, and flows start out of step with one another.
  int InTurn(std::span<const uint16_t> group, uint32_t flow_hash);
  // A new flowlet of the slot's flow: its member, counted if it moved.
  int NewFlowlet(std::span<const uint16_t> group, uint32_t flow_hash, QueueId queue, Time now,
                 uint64_t* slot, uint64_t now_ticks);

  cong::LbConfig config_;
  EgressPortSpan ports_;
  cong::FlowletTable flowlets_;        // flowlet and adaptive per flowlet; empty otherwise
  std::vector<cong::PortLoad> loads_;  // adaptive: by local port
  std::vector<uint16_t> turns_;  // round robin, adaptive per packet: a flow's turn, by hash slot
  std::vector<uint64_t> flowlet_changes_;  // by local port
  Random random_;
  const topo::Graph* graph_;
  topo::NodeId node_;
  topo::WcmpWeights weights_;  // weighted
};

}  // namespace fe::dp
