// Scale-up domains on top of a scale-out fabric: endpoints [d x M, (d+1) x M) form domain d and
// each has one link to each of the domain's K scale-up switches. The links are attached after
// every scale-out link, so a host's port 0 stays its NIC and ports 1..K lead to switches
// su<d x K>..su<d x K + K - 1> (tier 0, role "su", domain d).
#pragma once

#include "core/status.h"
#include "proto/scenario.pb.h"
#include "topology/graph.h"

namespace fe::topo {

// Adds the domains to a graph that holds the whole scale-out fabric. Errors name fields under
// "scale_up".
Status AddScaleUp(const fabric_emu::ScaleUp& scale_up, Graph& graph);

}  // namespace fe::topo
