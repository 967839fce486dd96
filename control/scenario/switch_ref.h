// Which switch a scenario's SwitchPortRef selects: by name ("leaf3"), or by scale-out tier and
// index within the tier (fat-tree scenarios: edge<index>, agg<index>, core<index>). The validator
// and the capture resolve it alike.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "proto/scenario.pb.h"
#include "topology/graph.h"

namespace fe::control {

// The switches of scale-out tier `tier` (1 = host-facing), in node order: index i selects the
// i-th. A fat-tree adds each tier's switches in index order, so edge switch i is the i-th.
std::vector<topo::NodeId> SwitchesOfTier(const topo::Graph& graph, uint8_t tier);

// The switch `ref` selects, or nullopt if the graph has none such.
std::optional<topo::NodeId> SelectedSwitch(const topo::Graph& graph,
                                           const fabric_emu::SwitchPortRef& ref);

}  // namespace fe::control
