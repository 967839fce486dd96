// Loads a scenario in Protobuf text format and validates it completely before anything runs.
// The result is either a scenario every later stage may trust, or every error found, one per
// line, each naming the file, the line and the field:
//   scenarios/x.textproto:3: topology.fat_tree.k: must be even and in [2, 64], got 5
//   scenarios/x.textproto:7:12: Message type "fabric_emu.Run" has no field named "sed".
// (syntax errors and unknown fields also carry the column).
#pragma once

#include <string>

#include "core/status.h"
#include "proto/scenario.pb.h"

namespace fe::control {

// Reads and validates the file at `path`; errors name the file as `path`.
StatusOr<fabric_emu::Scenario> LoadScenarioFile(const std::string& path);

// Validates scenario text; errors name it `display_name`, which also stands for the file's
// location: an unset scenario name becomes its stem, and relative paths inside the scenario
// (cdf_file) are checked against its folder. Paths are returned as written: relative ones are
// relative to the scenario's folder, std::filesystem::path(path).parent_path().
StatusOr<fabric_emu::Scenario> LoadScenarioText(const std::string& text,
                                                const std::string& display_name);

}  // namespace fe::control
