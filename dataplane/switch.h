// A store-and-forward switch: parse the real headers, route on the destination address through
// the ECMP group for it, and queue on the chosen egress port by priority.
#pragma once

#include <rte_mbuf.h>

#include <cstdint>
#include <span>

#include "dataplane/drop_reason.h"
#include "dataplane/egress_port.h"
#include "dataplane/element.h"
#include "topology/graph.h"
#include "topology/routes.h"

namespace fe::dp {

struct SwitchCounters {
  uint64_t rx_packets = 0;
  uint64_t forwarded_packets = 0;
  DropCounters drops;
};

class Switch final : public PacketReceiver {
 public:
  // ports: this switch's egress ports indexed by local port; routes outlive the switch.
  Switch(topo::NodeId node, std::span<EgressPort> ports, const topo::RouteTable* routes,
         uint32_t num_hosts, uint32_t ecmp_seed)
      : node_(node), ports_(ports), routes_(routes), num_hosts_(num_hosts), ecmp_seed_(ecmp_seed) {}

  void Receive(uint16_t local_port, rte_mbuf* m) override;

  const SwitchCounters& counters() const { return counters_; }

 private:
  void Drop(rte_mbuf* m, DropReason reason);

  topo::NodeId node_;
  std::span<EgressPort> ports_;
  const topo::RouteTable* routes_;
  uint32_t num_hosts_;
  uint32_t ecmp_seed_;
  SwitchCounters counters_;
};

}  // namespace fe::dp
