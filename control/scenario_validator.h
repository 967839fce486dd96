// The semantic rules of a scenario: ranges, cross-field constraints and references into the
// topology, checked on a parsed scenario before anything is built from it.
#pragma once

#include <google/protobuf/text_format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "proto/scenario.pb.h"

namespace fe::control {

// The latest time a scenario may name, in ns. Time is kept in 64-bit picoseconds, which end at
// 9.2e15 ns: a time field stays well below, so that sums of times cannot overflow.
inline constexpr double kMaxScenarioTimeNs = 1e15;

// The cores a run may use (run.cores, --cores): std::thread::hardware_concurrency, 1 where
// unknown.
uint32_t MachineCores();

// Every rule `scenario` breaks, as "FILE:LINE: field.path: message" (FILE is `display_name`,
// LINE 1-based, taken from `locations`), sorted by line. Empty when the scenario is valid.
// `display_name` also locates the file: relative cdf_file paths start at its folder.
std::vector<std::string> ValidateScenario(
    const fabric_emu::Scenario& scenario,
    const google::protobuf::TextFormat::ParseInfoTree& locations, const std::string& display_name);

}  // namespace fe::control
