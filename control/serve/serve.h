// Real-time mode, `fabric-emu serve SCENARIO`: the scenario's fabric in real time, with the real
// hosts behind the realtime.port devices taking the place of emulated hosts, the scenario's
// emulated traffic running alongside, until run.stop_ns of real time has passed (0: until
// SIGINT or SIGTERM). Writes summary.json to the output directory on the way out.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "control/api/api_options.h"
#include "proto/scenario.pb.h"

namespace fe::control {

struct ServeOptions {
  std::string out_dir;              // created if missing; summary.json goes here
  std::string scenario_dir = ".";   // relative paths inside the scenario start here
  std::vector<std::string> inputs;  // files the run reads, which out_dir must not replace
  std::ostream* log = nullptr;      // progress and notices (stderr in the CLI); none if null
  api::ApiOptions api;              // the HTTP API, when api.listen is set
};

// Runs the scenario, already validated (with the command line's overrides applied). Blocks
// SIGINT and SIGTERM for the whole process while it runs (they stop the loop instead) and must be
// the first to start the EAL. Returns the process exit status: 0; 2 when the output directory
// or the API cannot be set up, checked before the EAL starts; 1 when the run failed (the reason
// is on `log`).
int RunServe(const fabric_emu::Scenario& scenario, const ServeOptions& options);

}  // namespace fe::control
