// Commands as text: the JSON the HTTP API takes and events.csv records (protobuf's JSON mapping,
// field names as in command.proto), and the command a schedule entry carries.
#pragma once

#include <string>
#include <string_view>

#include "core/status.h"
#include "proto/command.pb.h"

namespace fe::control {

// One command from JSON, e.g. {"set_pfc": {"switch_name": ["leaf0"], "priority": 3,
// "enabled": false}}. Refuses malformed JSON and unknown fields, naming them; ranges and names
// are ValidateCommand's (control/scenario/validate/validate_command.h).
StatusOr<fabric_emu::Command> ParseCommandJson(std::string_view body);

// A command with its time, e.g. {"at_ns": 40000, "set_ecn": {...}}: the JSON of a schedule
// entry, for a command sent ahead of its time (CommandExecutor::ApplyAt). at_ns is optional here;
// CommandOf gives the command.
StatusOr<fabric_emu::ScheduledCommand> ParseScheduledCommandJson(std::string_view body);

// The command as one line of JSON, which ParseCommandJson reads back to an equal command.
std::string CommandJson(const fabric_emu::Command& command);

// The command of a schedule entry (its at_ns left out).
fabric_emu::Command CommandOf(const fabric_emu::ScheduledCommand& entry);

}  // namespace fe::control
