// The semantic rules of a scenario: ranges, cross-field constraints and references into the
// topology, checked on a parsed scenario before anything is built from it.
#pragma once

#include <google/protobuf/text_format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "proto/scenario.pb.h"

namespace fe::control {

// The latest time a scenario may name, in ns. Time is kept in 64-bit picoseconds, which end at
// 9.2e15 ns: a time field stays well below, so that sums of times cannot overflow.
inline constexpr double kMaxScenarioTimeNs = 1e15;

// The most cores a scenario may name (run.cores): each lane of a run is a DPDK lcore.
inline constexpr uint32_t kMaxRunCores = 64;

// The cores a run may use here (run.cores, --cores): std::thread::hardware_concurrency, 1 where
// unknown.
uint32_t MachineCores();

// Refuses a run.cores above this machine's cores, naming the scenario as `display_name`. Kept
// out of ValidateScenario: a scenario written on a larger machine is valid, and `--cores N` (or
// `--set run.cores=N`) runs it here.
Status CheckCoresFitMachine(const fabric_emu::Scenario& scenario, const std::string& display_name);

// Every rule `scenario` breaks, as "FILE:LINE: field.path: message" (FILE is `display_name`,
// LINE 1-based, taken from `locations`), sorted by line. Empty when the scenario is valid.
// `display_name` also locates the file: relative cdf_file paths start at its folder.
std::vector<std::string> ValidateScenario(
    const fabric_emu::Scenario& scenario,
    const google::protobuf::TextFormat::ParseInfoTree& locations, const std::string& display_name);

}  // namespace fe::control
