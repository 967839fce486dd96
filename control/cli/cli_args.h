// The fabric-emu command line: commands, options, help texts and exit codes. Parsing only;
// nothing here reads a scenario or runs anything.
//   fabric-emu run SCENARIO [--out DIR] [--seed N] [--quiet] [--events FILE] [--report]
//                  [--set PATH=VALUE ...] [--api HOST:PORT [--pace X] ...]
//   fabric-emu validate SCENARIO
//   fabric-emu serve SCENARIO [--eal "ARGS"] [--duration-s S] [--out DIR] [--seed N] [--quiet]
//   fabric-emu topo SCENARIO [--pair A,B] [--dot FILE|-] [--json FILE|-]
//   fabric-emu export SCENARIO [-o FILE] [--seed N]
//   fabric-emu report OUTDIR
//   fabric-emu sweep SCENARIO --set PATH=V1,V2,... [--set ...] [--jobs N] [--out DIR] [--quiet]
//   fabric-emu --help | help [COMMAND] | COMMAND --help | --version
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "control/api/api_options.h"
#include "core/status.h"
#include "proto/scenario.pb.h"

namespace fe::control {

// Exit status of fabric-emu, as its help text promises.
inline constexpr int kExitOk = 0;
inline constexpr int kExitRuntimeFailure = 1;  // the scenario was valid but the run failed
inline constexpr int kExitBadInput = 2;        // bad usage, or a scenario refused

enum class Command { kHelp, kVersion, kRun, kValidate, kServe, kTopo, kExport, kReport, kSweep };

struct CliArgs {
  Command command = Command::kHelp;
  // For kHelp: the command whose help was asked, kHelp itself for the overview.
  Command help_topic = Command::kHelp;
  std::string scenario_path;     // run, validate, serve, topo, export; report: its OUTDIR
  std::string out_dir;           // run, serve: --out; empty: out/<scenario name>, see OutputDir
  std::optional<uint64_t> seed;  // run, serve, export: --seed, replaces run.seed
  bool quiet = false;            // run, serve: --quiet, turns run.progress off
  bool report = false;           // run: --report, writes DIR/report.html at the end
  std::optional<std::string> eal_args;  // serve: --eal, replaces realtime.eal_args
  std::optional<double> duration_s;     // serve: --duration-s, replaces run.stop_ns
  // topo: --pair A,B, the endpoints (host index or name) whose paths are counted.
  std::optional<std::pair<std::string, std::string>> pair;
  std::string dot_file;     // topo: --dot, Graphviz output ("-": stdout); empty: none
  std::string json_file;    // topo: --json, JSON output ("-": stdout); empty: none
  std::string export_file;  // export: -o, the native trace ("-" or empty: stdout)
  // run, serve: --api, --api-token-file, --api-allow-remote, --api-hold; run: --pace.
  api::ApiOptions api;
  // run: --events, an events.csv whose commands run instead of the scenario's schedule.
  std::string events_file;
  // run: --set PATH=VALUE; sweep: --set PATH=V1,V2,...; in the order given (control/sweep/).
  std::vector<std::string> set;
  std::optional<int> jobs;        // sweep: --jobs, points run at once
  std::optional<uint32_t> cores;  // run: --cores, replaces run.cores
};

// Parses argv (argv[0] is the program). An error says what is wrong and which help to read;
// the caller prints it and exits with kExitBadInput.
StatusOr<CliArgs> ParseCliArgs(int argc, char** argv);

// The text `fabric-emu --help` (topic kHelp) or `fabric-emu COMMAND --help` prints.
std::string HelpText(Command topic);
std::string VersionText();

// Where a run writes its results: --out, else out/<scenario name>.
std::string OutputDir(const CliArgs& args, const fabric_emu::Scenario& scenario);

// Writes the options that replace scenario fields into the (already validated) scenario:
// --seed -> run.seed, --quiet -> run.progress = false, --cores -> run.cores, --eal ->
// realtime.eal_args,
// --duration-s -> run.stop_ns (in real time, emulated time runs with the wall clock).
void ApplyCliOverrides(const CliArgs& args, fabric_emu::Scenario* scenario);

}  // namespace fe::control
