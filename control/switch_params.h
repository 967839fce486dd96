// The scenario's switch section as switch parameters: unset fields keep the documented defaults
// of congestion/'s policies.
#pragma once

#include "core/status.h"
#include "dataplane/fabric.h"
#include "dataplane/switch_config.h"
#include "proto/scenario.pb.h"

namespace fe::control {

// Values are range-checked when the fabric compiles them; errors there name the field.
dp::SwitchParams BuildSwitchParams(const fabric_emu::SwitchConfig& sw);

// Fills params->switch_params from the section and, for each tier override, the tier's
// parameters: the section with the override's set fields replacing its own (repeated rows
// are appended, so a queue or DSCP row of the override wins over the section's).
void ApplySwitchSection(const fabric_emu::SwitchConfig& sw, dp::FabricParams* params);

}  // namespace fe::control
