// `fabric-emu run`: a scenario in software mode, from its file to its outputs.
#pragma once

#include "control/cli/cli_args.h"

namespace fe::control {

// Runs args.scenario_path in software mode and writes its outputs; returns the exit code
// (control/cli/main.cc lists them).
int RunCommand(const CliArgs& args);

}  // namespace fe::control
