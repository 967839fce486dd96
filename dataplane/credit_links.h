// Which links of a fabric run credit-based flow control, and with what: their link class says
// (topo::LinkClass::credit), the link and the fabric's largest frame fill in what it leaves out.
#pragma once

#include <cstdint>
#include <optional>

#include "congestion/credit_flow.h"
#include "dataplane/switch_config.h"
#include "topology/graph.h"

namespace fe::dp {

class Fabric;

// The credit parameters of link `link`, its buffer resolved; nullopt on a PFC link.
std::optional<cong::CreditParams> CreditParamsOf(const topo::Graph& graph, topo::LinkId link,
                                                 uint32_t max_frame_bytes);

// What a switch's port on `link` tells its switch config: rate, delay and credit buffer.
PortLink PortLinkOf(const topo::Graph& graph, topo::LinkId link, uint32_t max_frame_bytes);

// Turns on credits at both ends of every credit link of a built fabric (its ports connected, its
// switches made); each end draws its update losses from a stream of `seed` and the port.
void EnableCreditLinks(Fabric& fabric, uint32_t max_frame_bytes, uint64_t seed);

}  // namespace fe::dp
