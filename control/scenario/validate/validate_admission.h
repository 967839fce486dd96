// Refuses a switch whose shared buffer can never admit a full-sized data frame to a lossy queue:
// with PFC off (or the priority lossy) and alpha x buffer below one frame, every packet of MTU
// size is dropped at the first hop and the run could only retransmit until it gives up.
#pragma once

#include <cstdint>

#include "control/scenario/validate/validation.h"
#include "dataplane/switch_config.h"
#include "topology/graph.h"

namespace fe::control {

// Reports at the section's queue of the priority (its alpha) when there is one, else at the
// switch's settings; returns false when it reported.
bool CheckAdmitsFullFrames(Validation& v, const Site& settings, const topo::Node& node,
                           const dp::SwitchConfig& config, uint32_t mtu_payload_bytes);

}  // namespace fe::control
