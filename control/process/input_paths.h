// Input files a scenario names (cdf_file, a graph's or a trace's file, ...) are relative to the
// scenario's folder. A sweep writes each point's scenario into another folder, so it anchors
// them first: relative paths become absolute, and the point's scenario runs from anywhere. A run
// lists them, so that its output directory never replaces one.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include "proto/scenario.pb.h"

namespace fe::control {

// Whether `field` holds an input file's path: a string field named `file` or `*_file`, except
// capture.file, an output (relative to the output directory).
bool IsInputPathField(const google::protobuf::FieldDescriptor* field);

// Every set input path in `message` (recursively) that is relative becomes scenario_dir / path,
// made absolute and normalised.
void AnchorInputPaths(const std::filesystem::path& scenario_dir,
                      google::protobuf::Message* message);

// The folder a scenario's relative paths start from: the scenario file's own ("." for a bare
// name).
std::string ScenarioDirOf(const std::string& scenario_path);

// Every input file the scenario names, anchored as above.
std::vector<std::string> ScenarioInputFiles(const fabric_emu::Scenario& scenario,
                                            const std::filesystem::path& scenario_dir);

// What a run's output directory must not replace: the scenario file and the files it reads. Not
// the events file of a replay, read before the directory is readied (it may be that run's
// events.csv, which the replay writes again).
std::vector<std::string> RunInputFiles(const std::string& scenario_path,
                                       const fabric_emu::Scenario& scenario);

}  // namespace fe::control
