// The switch section's parts, shared by its files: the rules of one SwitchConfig's fields, and
// the rules between fields on the configuration a set of switches actually gets (the layers in
// force: the scenario-wide section, then a tier, role or name override on top).
#pragma once

#include <string>
#include <vector>

#include "control/scenario/validate/validation.h"

namespace fe::control {

// One SwitchConfig as it stands in the file: the scenario-wide one or an override's.
struct SwitchLayer {
  const fabric_emu::SwitchConfig* config;
  Site site;
};

// The rules each field of a WRED profile obeys on its own.
void CheckWredFields(Validation& v, const fabric_emu::Wred& w, const Site& s);

// The switches' roles, comma-separated, for an error naming one that is not among them.
std::string RolesOf(const topo::Graph& graph);

// The rules each field obeys on its own, in one SwitchConfig; overrides hold no overrides.
void CheckSwitchFields(Validation& v, const fabric_emu::SwitchConfig& c, const Site& s,
                       bool top_level);

// Rules between fields, on `layers` (bottom first). With an override on top, only errors the
// override takes part in are reported: those of the layers below were reported on their own.
// `scope` ends each message (" for CORE switches"); `max_ports` is the most ports a switch the
// layers apply to has (0: unknown, and the buffer's reserves go unchecked).
void CheckSwitchConsistency(Validation& v, const std::vector<SwitchLayer>& layers,
                            const std::string& scope, int max_ports);

}  // namespace fe::control
