// scenario.textproto: the scenario exactly as it ran (command-line options such as --seed
// applied, defaults left implicit; run.cores left out, as it changes no result), so that the outputs say what produced them and the report
// can show the run's settings.
#pragma once

#include <string>

#include "proto/scenario.pb.h"

namespace fe::control {

// Protobuf text format, under a comment that says what the file is. File paths in it (traces,
// CDFs) are as the scenario gave them: relative ones start at the original scenario's folder.
std::string ScenarioText(const fabric_emu::Scenario& scenario);

}  // namespace fe::control
