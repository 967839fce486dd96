// The scenario's switch section as switch parameters: unset fields keep the documented defaults
// of congestion/'s policies.
#pragma once

#include "core/status.h"
#include "dataplane/fabric.h"
#include "dataplane/switch_config.h"
#include "proto/scenario.pb.h"
#include "topology/graph.h"

namespace fe::control {

// One queue's WRED profile; unset fields keep the schema's defaults.
cong::WredParams BuildWredParams(const fabric_emu::Wred& wred);

// Values are range-checked when the fabric compiles them; errors there name the field.
dp::SwitchParams BuildSwitchParams(const fabric_emu::SwitchConfig& sw);

// Fills params->switch_params from the section and, for each tier override, the tier's
// parameters: the section with the override's set fields replacing its own (repeated rows
// are appended, so a queue or DSCP row of the override wins over the section's). Each switch of
// `graph` that a role or name override selects gets a variant: the section, its tier's override,
// its role's, then its name's, each replacing the fields it sets. Overrides naming no switch of
// the graph select none (the validator refuses them).
void ApplySwitchSection(const fabric_emu::SwitchConfig& sw, const topo::Graph& graph,
                        dp::FabricParams* params);

}  // namespace fe::control
