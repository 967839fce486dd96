// The emulated fabric: owns every element of a topology in flat arrays (egress ports indexed by
// node and local port, one Switch per switch node, one Nic per host port) and the packet pool
// they share. Several fabrics can live in one process; each has its own scheduler.
//
// A host (an endpoint) has a NIC on each of its ports, all with the host's index and addresses:
// port 0's is the scale-out NIC, ports 1.. lead to the scale-up switches of its domain. A message
// is sent and acknowledged by the NIC of the port Graph::HostPortTo picks for it; frames reaching
// a host go to the NIC of the port they arrive on.
//
// Failures: links go down and up (SetLinkUp), routes change (SetRoutes), and messages whose
// destination no route reaches any more are given up (MarkUnreachable).
#pragma once

#include <rte_mempool.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/scheduler.h"
#include "core/status.h"
#include "dataplane/egress_port_array.h"
#include "dataplane/message.h"
#include "dataplane/nic.h"
#include "dataplane/packet_pool.h"
#include "dataplane/switch.h"
#include "dataplane/switch_config.h"
#include "topology/graph.h"
#include "topology/routes.h"

namespace fe::dp {

inline constexpr uint32_t kMinMbufPoolSize = 8191;
// A pool in DPDK's heap is whole from the start and must fit the memory the EAL was given; a
// host-page pool grows on demand, up to what its owner plans (control/scenario/packet_budget.h).
inline constexpr uint32_t kMaxDpdkHeapPoolSize = (1u << 21) - 1;

struct FabricParams {
  NicParams nic;
  // Every switch. headroom.max_frame_bytes is replaced by the NIC's largest frame, the largest
  // the fabric carries.
  SwitchParams switch_params;
  // Replaces switch_params for the switches of a tier (index: topology tier, 1 = edge).
  std::array<std::optional<SwitchParams>, 4> tier_switch_params;
  // Replaces both for single switches (role and name overrides, resolved by the caller):
  // node_switch_variant[node] indexes switch_variants, -1 or past the end for none.
  std::vector<int32_t> node_switch_variant;
  std::vector<SwitchParams> switch_variants;
  uint32_t ecmp_seed = 1;    // mixed with each switch's id so hops choose independently
  uint64_t random_seed = 1;  // WRED draws, mixed with each switch's id
  uint32_t mbuf_pool_size = 262143;
  PoolMemory pool_memory = PoolMemory::kDpdkHeap;
  uint16_t mbuf_data_room_bytes = 256;  // headers only: emulated payloads are virtual
};

// What switch `node` (of topology tier `tier`) is built with: its own variant, its tier's
// parameters or the fabric-wide ones, with headroom sized for the NIC's largest frame.
SwitchParams SwitchParamsOf(const FabricParams& params, topo::NodeId node, uint8_t tier);

struct FabricTotals {
  uint64_t packet_hops = 0;  // frames that crossed one link, data and control alike
  uint64_t wire_bytes = 0;
  NicCounters nics;    // every NIC's counters summed
  DropCounters drops;  // every switch's, NIC's and link's drops
};

// HPCC's base RTT T of the path a message (id `spread`) takes from src_host to dst_host
// (topo::PathLinks, the walk the ideal FCT takes too): every link crossed twice, each time for its
// propagation delay plus the serialisation of a full frame at its rate. Real ACKs are shorter than
// data frames, so T is a little above the unloaded RTT of a data packet and its ACK, and W_init = B
// x T never limits a lone flow. Zero when dst_host cannot be reached. Under HPCC the fabric gives
// each message's QP the T of its path.
Time PathBaseRtt(const topo::Graph& graph, const topo::RouteTable& routes, uint32_t src_host,
                 uint32_t dst_host, uint32_t mtu_payload_bytes, uint32_t spread = 0);

class Fabric final : public Reachability {
 public:
  // The EAL must be initialised. graph and routes must outlive the fabric. Ports of a link class
  // with a bit-error rate lose frames at it, each from a stream of params.random_seed and the
  // port.
  static StatusOr<std::unique_ptr<Fabric>> Create(const topo::Graph& graph,
                                                  const topo::RouteTable& routes,
                                                  const FabricParams& params, Scheduler* sched);
  ~Fabric() override;
  Fabric(const Fabric&) = delete;
  Fabric& operator=(const Fabric&) = delete;

  // Adds messages and schedules the starts of those not held; validates hosts and sizes first
  // (all or nothing).
  Status AddMessages(std::span<const MessageSpec> specs);
  // Starts held message id at `at` (Nic::StartAt on its sender).
  void Release(uint32_t id, Time at) { sender(id).StartAt(id, at); }
  // Marks held message id as one that will never start, or revokes that (Nic::SetCancelled).
  void SetCancelled(uint32_t id, bool cancelled) { sender(id).SetCancelled(id, cancelled); }
  // Every NIC reports deliveries and messages given up to `observer` (nullptr: none).
  void SetMessageObserver(MessageObserver* observer);

  // Hands host `host`'s attachment point to an outside element (a real port in real-time mode):
  // frames the fabric delivers to the host go to `receiver` instead of the emulated NIC, and the
  // returned port is the host's uplink, where the caller enqueues the frames the host sends.
  EgressPort& AttachExternal(uint32_t host, PacketReceiver* receiver);

  const MessageTable& messages() const { return messages_; }
  // Per-message HPCC state, by message id; empty unless the NICs run HPCC.
  const HpccTable& hpcc() const { return hpcc_; }
  const topo::Graph& graph() const { return graph_; }
  // The scale-out NIC of host `host` (its port 0).
  Nic& nic(uint32_t host) { return *nics_[first_nic_[host]]; }
  // The NIC on port `port` of host `host`; the host has num_nics(host) of them.
  Nic& nic(uint32_t host, uint16_t port) { return *nics_[first_nic_[host] + port]; }
  uint16_t num_nics(uint32_t host) const {
    return static_cast<uint16_t>(first_nic_[host + 1] - first_nic_[host]);
  }
  // The NIC that sends (and is acknowledged for) message id.
  Nic& sender(uint32_t id) {
    const MessageSpec& s = messages_.spec(id);
    return nic(s.src_host, messages_.info[id].src_port);
  }
  const Switch& switch_at(size_t i) const { return *switches_[i]; }
  Switch& switch_at(size_t i) { return *switches_[i]; }
  size_t num_switches() const { return switches_.size(); }
  // Egress port `port` of node `node`.
  EgressPort& port(topo::NodeId node, uint16_t port) { return ports_[first_port_[node] + port]; }
  const EgressPort& port(topo::NodeId node, uint16_t port) const {
    return ports_[first_port_[node] + port];
  }
  // Every egress port, by global index (node by node, local ports in order).
  size_t num_ports() const { return ports_.size(); }
  const EgressPort& port_at(size_t i) const { return ports_[i]; }
  // The bytes a port takes, its queues included.
  uint32_t port_stride_bytes() const { return ports_.stride_bytes(); }

  // Takes link `link` down (both directions) or brings it back. Call between events or from a
  // domain-0 event: it changes both ends' state at once.
  void SetLinkUp(topo::LinkId link, bool up);
  bool link_up(topo::LinkId link) const { return link_up_[link] != 0; }
  // One byte per link, 1 while it is up: the mask RouteTable::Build takes.
  std::span<const uint8_t> link_up_mask() const { return link_up_; }
  // Switches route by `routes` from now on; the fabric keeps it alive (and lets the previous
  // table it held go). Call between events or from a domain-0 event.
  void SetRoutes(std::shared_ptr<const topo::RouteTable> routes);
  const topo::RouteTable& routes() const { return *routes_; }
  // Gives up every started, incomplete message whose destination the current routes and link
  // states do not reach from its sending port (Nic::Abandon); returns how many it gave up now.
  // Messages starting later are checked as they start.
  uint64_t MarkUnreachable();
  // Whether host src_host, sending by its port src_port, reaches dst_host: the port's link is up
  // and leads to dst_host, or to a switch with a route to it.
  bool Reachable(uint32_t src_host, uint16_t src_port, uint32_t dst_host) const override;
  // A scale-up message moves to the next of its domain's scale-up switches that reaches its
  // destination; a scale-out one has no other port (its routes already use every live path).
  bool MoveToLivePort(uint32_t id) override;
  // Every link loss (kLinkDown, kBitError) is reported to `observer` (nullptr: none).
  void SetLossObserver(LinkLossObserver* observer);
  rte_mempool* pool() const { return pool_; }
  uint64_t messages_delivered() const;
  FabricTotals Totals() const;
  // Messages started and not finished (MessageTable::in_progress), and those not finished, from
  // the NICs' counts: a look that costs a pass over the NICs, not over the messages.
  uint64_t MessagesInProgress() const;
  uint64_t MessagesUnfinished() const;
  // Packets the NICs could not allocate (Totals().nics.alloc_failures, without summing the rest,
  // for a check between slices of a run).
  uint64_t nic_alloc_failures() const;
  // Mbufs currently taken from the pool (queued, on the wire or held by an element).
  uint32_t mbufs_in_use() const;

  // Each node (switch or host) is a scheduler domain of its own, numbered from 1: nodes meet
  // only over links, so the shortest link delay is how far apart in time they can run
  // (Scheduler::EnableWindows). Zero when some link has no delay.
  uint32_t num_domains() const { return static_cast<uint32_t>(graph_.nodes().size()) + 1; }
  // The scheduler domain of node n's elements.
  static uint32_t domain_of(topo::NodeId n) { return static_cast<uint32_t>(n) + 1; }
  Scheduler* scheduler() const { return sched_; }
  Time lookahead() const;

 private:
  Fabric(const topo::Graph& graph, const topo::RouteTable& routes, const FabricParams& params,
         Scheduler* sched)
      : graph_(graph), routes_(&routes), params_(params), sched_(sched) {}

  const topo::Graph& graph_;
  const topo::RouteTable* routes_;                       // current
  std::shared_ptr<const topo::RouteTable> held_routes_;  // routes_ unless they are the caller's
  FabricParams params_;
  Scheduler* sched_;
  rte_mempool* pool_ = nullptr;
  EgressPortArray ports_;  // never grows after Create: the scheduler holds pointers
  std::vector<uint32_t> first_port_;
  std::vector<std::unique_ptr<Switch>> switches_;
  std::vector<std::unique_ptr<Nic>> nics_;  // by host index, then host port
  std::vector<uint32_t> first_nic_;         // by host index: its port 0's NIC; one extra at end
  std::vector<uint8_t> link_up_;            // by link
  MessageTable messages_;
  HpccTable hpcc_;  // beside messages_, under HPCC only
};

}  // namespace fe::dp
