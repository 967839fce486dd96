// The rules a command obeys, checked against the scenario and the fabric it builds, with the
// scenario validator's messages: a schedule entry and the same command sent to the HTTP API are
// refused for the same reason, named by the same field path.
#pragma once

#include "control/scenario/validate/validation.h"
#include "core/status.h"
#include "proto/command.pb.h"
#include "proto/scenario.pb.h"
#include "topology/graph.h"

namespace fe::control {

// Reports into v.out what is wrong with `command`, which sits at `s` (its fields are named
// set_ecn, set_pfc, ... there, as in Command).
void CheckCommand(Validation& v, const fabric_emu::Command& command, const Site& s);

// The scenario's schedule section, a section of the scenario validator: every entry's time and
// command. Errors read "FILE:LINE: schedule[2].set_ecn.wred.kmin_bytes: reason".
void ValidateSchedule(Validation& v);

// A command from outside the scenario file (the HTTP API, a replayed events.csv) against the
// validated scenario and its graph: Ok, or the first error as "set_ecn.priority: reason". Copies
// the graph: meant for commands one at a time, not for a packet rate.
Status ValidateCommand(const fabric_emu::Command& command, const fabric_emu::Scenario& scenario,
                       const topo::Graph& graph);

// A command's at_ns as a schedule entry's is checked (0 to 1e15, finite): Ok, or
// "at_ns: reason". Ok without one.
Status ValidateCommandTime(const fabric_emu::ScheduledCommand& entry);

}  // namespace fe::control
