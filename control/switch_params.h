// The scenario's switch section as switch parameters: unset fields keep the documented defaults
// of congestion/'s policies.
#pragma once

#include "core/status.h"
#include "dataplane/switch_config.h"
#include "proto/scenario.pb.h"

namespace fe::control {

// Values are range-checked when the fabric compiles them; errors there name the field.
dp::SwitchParams BuildSwitchParams(const fabric_emu::SwitchConfig& sw);

}  // namespace fe::control
