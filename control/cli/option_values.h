// How each option's value is checked and set into CliArgs: the `apply` of the option table
// (cli_options.h). Each returns what is wrong with the value, without the command, which the
// parser adds with the help to read.
#pragma once

#include <string_view>

#include "control/cli/cli_args.h"
#include "core/status.h"

namespace fe::control {

Status SetOutDir(std::string_view flag, std::string_view value, CliArgs* args);
Status SetSeed(std::string_view flag, std::string_view value, CliArgs* args);
Status SetQuiet(std::string_view flag, std::string_view value, CliArgs* args);
Status SetReport(std::string_view flag, std::string_view value, CliArgs* args);
Status SetEvents(std::string_view flag, std::string_view value, CliArgs* args);
Status AddSet(std::string_view flag, std::string_view value, CliArgs* args);
Status SetCores(std::string_view flag, std::string_view value, CliArgs* args);
Status SetRealtime(std::string_view flag, std::string_view value, CliArgs* args);
Status SetEalArgs(std::string_view flag, std::string_view value, CliArgs* args);
Status SetDurationS(std::string_view flag, std::string_view value, CliArgs* args);
Status SetApiListen(std::string_view flag, std::string_view value, CliArgs* args);
Status SetApiTokenFile(std::string_view flag, std::string_view value, CliArgs* args);
Status SetApiAllowRemote(std::string_view flag, std::string_view value, CliArgs* args);
Status SetApiHold(std::string_view flag, std::string_view value, CliArgs* args);
Status SetPace(std::string_view flag, std::string_view value, CliArgs* args);
Status SetPair(std::string_view flag, std::string_view value, CliArgs* args);
Status SetDotFile(std::string_view flag, std::string_view value, CliArgs* args);
Status SetJsonFile(std::string_view flag, std::string_view value, CliArgs* args);
Status SetExportFile(std::string_view flag, std::string_view value, CliArgs* args);
Status SetJobs(std::string_view flag, std::string_view value, CliArgs* args);

}  // namespace fe::control
