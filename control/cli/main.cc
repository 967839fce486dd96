// fabric-emu: the command line. Exit codes: 0 success, 2 bad usage, a refused scenario or an
// output directory the run cannot use (nothing ran), 1 a valid scenario whose run failed (or
// made no progress, or whose results could not be written, standard output included), 128 + the
// signal's number for a run that SIGINT, SIGTERM or SIGHUP stopped.
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "control/cli/cli_args.h"
#include "control/cli/export_command.h"
#include "control/cli/topo_command.h"
#include "control/process/input_paths.h"
#include "control/report/html/report_html.h"
#include "control/run/run_command.h"
#include "control/scenario/realtime_eal.h"
#include "control/scenario/scenario_loader.h"
#include "control/scenario/scenario_overrides.h"
#include "control/scenario/validate/scenario_validator.h"
#include "control/serve/realtime_interfaces.h"
#include "control/serve/serve.h"
#include "control/sweep/sweep_command.h"

namespace fe::control {
namespace {

// Interfaces exist or not on this machine: serve needs them here, validate may run elsewhere, so
// for validate a missing one is only a warning.
int ValidateCommand(const CliArgs& args, const fabric_emu::Scenario& scenario) {
  const std::vector<std::string> missing = MissingInterfaces(args.scenario_path, scenario);
  for (const std::string& d : DownInterfaces(scenario)) std::cerr << "warning: " << d << "\n";
  for (const std::string& m : missing) std::cerr << "warning: " << m << "\n";
  if (const Status fits = CheckCoresFitMachine(scenario, args.scenario_path); !fits.ok()) {
    std::cerr << "warning: " << fits.message() << "\n";
  }
  std::cout << args.scenario_path << ": valid\n";
  return kExitOk;
}

int TopoCommand(const CliArgs& args, const fabric_emu::Scenario& scenario) {
  TopoOptions options;
  options.scenario_dir = ScenarioDirOf(args.scenario_path);
  options.pair = args.pair;
  options.dot_file = args.dot_file;
  options.json_file = args.json_file;
  return RunTopo(scenario, options, std::cout, std::cerr);
}

int ExportCommand(const CliArgs& args, const fabric_emu::Scenario& scenario) {
  const ExportOptions options{ScenarioDirOf(args.scenario_path), args.export_file,
                              scenario.run().seed()};
  return RunExport(scenario, options, std::cout, std::cerr);
}

int ServeCommand(const CliArgs& args, const fabric_emu::Scenario& scenario) {
  const std::vector<std::string> missing = MissingInterfaces(args.scenario_path, scenario);
  for (const std::string& d : DownInterfaces(scenario)) std::cerr << "warning: " << d << "\n";
  if (!missing.empty()) {
    for (const std::string& m : missing) std::cerr << m << "\n";
    return kExitBadInput;
  }
  // The scenario's own eal_args were checked as it loaded; --eal replaced them since.
  if (args.eal_args) {
    if (const StatusOr<std::vector<std::string>> eal = ServeEalArgs(scenario); !eal.ok()) {
      std::cerr << "fabric-emu: serve: --eal: " << eal.status().message() << "\n";
      return kExitBadInput;
    }
  }
  ServeOptions options;
  options.out_dir = OutputDir(args, scenario);
  options.scenario_dir = ScenarioDirOf(args.scenario_path);
  options.inputs = RunInputFiles(args.scenario_path, scenario);
  options.log = &std::cerr;
  options.api = args.api;
  return RunServe(scenario, options);
}

// The commands main loads the scenario for: validate, serve, topo, export and sweep.
int ScenarioCommand(const CliArgs& args) {
  StatusOr<fabric_emu::Scenario> loaded = LoadScenarioFile(args.scenario_path);
  if (!loaded.ok()) {
    std::cerr << loaded.status().message() << "\n";
    return kExitBadInput;
  }
  fabric_emu::Scenario scenario = std::move(loaded).value();
  // A sweep's --set lists values for its points, not one value for this scenario.
  if (args.command == Command::kSweep) return RunSweep(args, scenario);
  if (Status s = ApplySetOptions(args.set, args.scenario_path, &scenario); !s.ok()) {
    std::cerr << "fabric-emu: " << s.message() << "\n";
    return kExitBadInput;
  }
  ApplyCliOverrides(args, &scenario);
  switch (args.command) {
    case Command::kValidate:
      return ValidateCommand(args, scenario);
    case Command::kTopo:
      return TopoCommand(args, scenario);
    case Command::kExport:
      return ExportCommand(args, scenario);
    default:
      return ServeCommand(args, scenario);
  }
}

int Main(int argc, char** argv) {
  StatusOr<CliArgs> parsed = ParseCliArgs(argc, argv);
  if (!parsed.ok()) {
    std::cerr << "fabric-emu: " << parsed.status().message()
              << "\n(fabric-emu --help lists the commands)\n";
    return kExitBadInput;
  }
  const CliArgs& args = *parsed;
  switch (args.command) {
    case Command::kHelp:
      std::cout << HelpText(args.help_topic);
      return kExitOk;
    case Command::kVersion:
      std::cout << VersionText();
      return kExitOk;
    case Command::kReport:
      return html::RunReportCommand(args.scenario_path, std::cout, std::cerr);
    case Command::kRun:
      return RunCommand(args);
    case Command::kValidate:
    case Command::kServe:
    case Command::kTopo:
    case Command::kExport:
    case Command::kSweep:
      return ScenarioCommand(args);
  }
  return kExitBadInput;
}

// What a command prints may be its product (`export`, `topo --dot -`): a write to standard output
// that failed (a full disk) fails the command as a file's would, instead of exiting 0 with the
// text cut short.
int CheckStdout(int exit_code) {
  std::cout.flush();
  if (std::cout.good() && std::fflush(stdout) == 0) return exit_code;
  std::cerr << "fabric-emu: cannot write standard output: " << std::strerror(errno) << "\n";
  return exit_code == kExitOk ? kExitRuntimeFailure : exit_code;
}

}  // namespace
}  // namespace fe::control

int main(int argc, char** argv) {
  // A reader that went away (`fabric-emu run ... | head`, a closed log pipe) must not end a run
  // before it writes its outputs: the write fails with EPIPE instead, and CheckStdout says so.
  std::signal(SIGPIPE, SIG_IGN);
  return fe::control::CheckStdout(fe::control::Main(argc, argv));
}
