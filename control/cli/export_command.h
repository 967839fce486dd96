// `fabric-emu export`: writes a scenario's whole workload, every traffic section merged as a run
// merges them, in the native trace format (traffic/trace/native.h), so that a scenario replaying
// the file runs the same messages: the same flows.csv for the same seed.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "proto/scenario.pb.h"

namespace fe::control {

struct ExportOptions {
  std::string scenario_dir;  // where the scenario's relative file names start
  std::string out_file;      // empty or "-": `out`
  uint64_t seed = 1;         // draws the random patterns, as run.seed does in a run
};

// Runs the command on a validated scenario. Returns the exit code; errors go to `err`.
int RunExport(const fabric_emu::Scenario& scenario, const ExportOptions& options, std::ostream& out,
              std::ostream& err);

}  // namespace fe::control
