// The scenario's load_balancing block (a switch section's, or an override's) as balancer
// parameters: unset fields keep the schema defaults.
#pragma once

#include "congestion/load_balancing_config.h"
#include "proto/scenario.pb.h"

namespace fe::control {

cong::LbParams BuildLbParams(const fabric_emu::LoadBalancing& lb);

}  // namespace fe::control
