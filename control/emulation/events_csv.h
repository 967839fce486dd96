// events.csv: every command a run applied, one row each in the order applied, and the same file
// read back to replay them (`fabric-emu run SCENARIO --events FILE`).
//
//   time_ns,source,command
//   20000.000,schedule,"{""set_ecn"":{""priority"":3,""wred"":{""kmin_bytes"":""20000""}}}"
//
// time_ns is when the command ran, in ns with the engine's picoseconds exact (3 decimals);
// source is schedule, api or replay; command is the command as one line of JSON (command.proto's
// JSON mapping), quoted for CSV.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "control/emulation/command_executor.h"
#include "core/status.h"
#include "proto/scenario.pb.h"

namespace fe::control {

// A time as events.csv's time_ns: ns with three decimals, the engine's picosecond exactly, so
// that a replay runs each command at the same ps.
std::string NsExact(Time t);

std::string EventsCsv(std::span<const AppliedCommand> applied);

struct EventRow {
  int line = 0;  // in the file, from 1 (the header)
  AppliedCommand applied;
};

// The rows of an events.csv text, its lines ended by LF or CR LF; errors read "FILE:LINE: reason".
StatusOr<std::vector<EventRow>> ParseEventsCsv(const std::string& text, const std::string& file);

// Reads an events.csv and checks every command against the (validated) scenario and the fabric
// it builds, as a schedule entry would be: "FILE:LINE: set_ecn.priority: reason".
StatusOr<std::vector<AppliedCommand>> LoadEvents(const std::string& path,
                                                 const fabric_emu::Scenario& scenario,
                                                 const std::string& scenario_dir);

}  // namespace fe::control
