#include "control/cli/cli_args.h"

#include <charconv>
#include <cmath>
#include <span>
#include <string_view>
#include <vector>

#include "control/scenario/scenario_validator.h"
#include "dataplane/eal.h"

namespace fe::control {
namespace {

enum class Option {
  kOut,
  kSeed,
  kQuiet,
  kEal,
  kDurationS,
  kRealtime,
  kPair,
  kDot,
  kJson,
  kExportFile,
  kApi,
  kApiTokenFile,
  kApiAllowRemote,
  kApiHold,
  kPace,
  kEvents,
  kReport,
  kSet,
  kJobs,
  kCores
};

struct OptionSpec {
  std::string_view name;
  Option option;
  bool takes_value;
};

// `run --realtime` is `serve`; the real-time options are taken only together with it.
constexpr OptionSpec kRunOptions[] = {
    {"--out", Option::kOut, true},
    {"--seed", Option::kSeed, true},
    {"--quiet", Option::kQuiet, false},
    {"--realtime", Option::kRealtime, false},
    {"--eal", Option::kEal, true},
    {"--duration-s", Option::kDurationS, true},
    {"--api", Option::kApi, true},
    {"--api-token-file", Option::kApiTokenFile, true},
    {"--api-allow-remote", Option::kApiAllowRemote, false},
    {"--api-hold", Option::kApiHold, false},
    {"--pace", Option::kPace, true},
    {"--events", Option::kEvents, true},
    {"--report", Option::kReport, false},
    {"--set", Option::kSet, true},
    {"--cores", Option::kCores, true},
};
constexpr OptionSpec kServeOptions[] = {
    {"--out", Option::kOut, true},
    {"--seed", Option::kSeed, true},
    {"--quiet", Option::kQuiet, false},
    {"--eal", Option::kEal, true},
    {"--duration-s", Option::kDurationS, true},
    {"--api", Option::kApi, true},
    {"--api-token-file", Option::kApiTokenFile, true},
    {"--api-allow-remote", Option::kApiAllowRemote, false},
    {"--api-hold", Option::kApiHold, false},
    {"--pace", Option::kPace, true},
};

constexpr OptionSpec kTopoOptions[] = {
    {"--pair", Option::kPair, true},
    {"--dot", Option::kDot, true},
    {"--json", Option::kJson, true},
};

constexpr OptionSpec kExportOptions[] = {
    {"-o", Option::kExportFile, true},
    {"--output", Option::kExportFile, true},
    {"--seed", Option::kSeed, true},
};

constexpr OptionSpec kSweepOptions[] = {
    {"--set", Option::kSet, true},        {"--jobs", Option::kJobs, true},
    {"--out", Option::kOut, true},        {"--quiet", Option::kQuiet, false},
    {"--report", Option::kReport, false},
};

std::span<const OptionSpec> OptionsOf(Command command) {
  switch (command) {
    case Command::kRun:
      return kRunOptions;
    case Command::kServe:
      return kServeOptions;
    case Command::kTopo:
      return kTopoOptions;
    case Command::kExport:
      return kExportOptions;
    case Command::kSweep:
      return kSweepOptions;
    default:
      return {};
  }
}

std::optional<Command> CommandNamed(std::string_view name) {
  if (name == "run") return Command::kRun;
  if (name == "validate") return Command::kValidate;
  if (name == "serve") return Command::kServe;
  if (name == "topo") return Command::kTopo;
  if (name == "export") return Command::kExport;
  if (name == "report") return Command::kReport;
  if (name == "sweep") return Command::kSweep;
  return std::nullopt;
}

std::string_view NameOf(Command command) {
  switch (command) {
    case Command::kRun:
      return "run";
    case Command::kValidate:
      return "validate";
    case Command::kServe:
      return "serve";
    case Command::kTopo:
      return "topo";
    case Command::kExport:
      return "export";
    case Command::kReport:
      return "report";
    case Command::kSweep:
      return "sweep";
    case Command::kHelp:
      return "help";
    case Command::kVersion:
      return "--version";
  }
  return "";
}

// --duration-s becomes run.stop_ns, which validation holds to kMaxScenarioTimeNs.
constexpr double kMaxDurationS = kMaxScenarioTimeNs * 1e-9;

// Runs at once in a sweep: each is a process of its own.
constexpr int kMaxJobs = 1024;

bool IsHelp(std::string_view arg) { return arg == "--help" || arg == "-h"; }

// "run: <what> (see 'fabric-emu run --help')"; the caller prefixes the program name.
Status UsageError(Command command, const std::string& what) {
  const std::string name(NameOf(command));
  return Status::Error(name + ": " + what + " (see 'fabric-emu " + name + " --help')");
}

Status ApplyOption(Command command, const OptionSpec& spec, std::string_view value, CliArgs* args) {
  const std::string flag(spec.name);
  const std::string quoted = "'" + std::string(value) + "'";
  switch (spec.option) {
    case Option::kOut:
      if (value.empty()) return UsageError(command, flag + " needs a directory");
      args->out_dir = std::string(value);
      return Status::Ok();
    case Option::kSeed: {
      uint64_t seed = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seed);
      if (value.empty() || ec != std::errc() || end != value.data() + value.size()) {
        return UsageError(command, flag + " takes a whole number from 0 to 2^64-1, got " + quoted);
      }
      args->seed = seed;
      return Status::Ok();
    }
    case Option::kQuiet:
      args->quiet = true;
      return Status::Ok();
    case Option::kEal:
      if (const std::string why = dp::RefusedEalArgs(dp::SplitEalArgs(std::string(value)));
          !why.empty()) {
        return UsageError(command, flag + ": " + why);
      }
      args->eal_args = std::string(value);
      return Status::Ok();
    case Option::kRealtime:
      args->command = Command::kServe;
      return Status::Ok();
    case Option::kDurationS: {
      double seconds = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
      if (value.empty() || ec != std::errc() || end != value.data() + value.size() ||
          !std::isfinite(seconds) || seconds <= 0 || seconds > kMaxDurationS) {
        return UsageError(command, flag + " takes a number of seconds > 0 and at most 1e6 (as " +
                                       "run.stop_ns, at most 1e15 ns), got " + quoted);
      }
      args->duration_s = seconds;
      return Status::Ok();
    }
    case Option::kPair: {
      const size_t comma = value.find(',');
      if (comma == std::string_view::npos || comma == 0 || comma + 1 == value.size()) {
        return UsageError(command,
                          flag + " takes two endpoints A,B (host index or name), got " + quoted);
      }
      args->pair.emplace(std::string(value.substr(0, comma)), std::string(value.substr(comma + 1)));
      return Status::Ok();
    }
    case Option::kDot:
    case Option::kJson:
      if (value.empty()) return UsageError(command, flag + " needs a file, or - for stdout");
      (spec.option == Option::kDot ? args->dot_file : args->json_file) = std::string(value);
      return Status::Ok();
    case Option::kReport:
      args->report = true;
      return Status::Ok();
    case Option::kExportFile:
      if (value.empty()) return UsageError(command, flag + " needs a file, or - for stdout");
      args->export_file = std::string(value);
      return Status::Ok();
    case Option::kApi: {
      StatusOr<api::ListenAddress> listen = api::ParseListenAddress(value);
      if (!listen.ok()) return UsageError(command, listen.status().message());
      args->api.listen = *listen;
      return Status::Ok();
    }
    case Option::kApiTokenFile:
      if (value.empty()) return UsageError(command, flag + " needs a file");
      args->api.token_file = std::string(value);
      return Status::Ok();
    case Option::kApiAllowRemote:
      args->api.allow_remote = true;
      return Status::Ok();
    case Option::kApiHold:
      args->api.hold = true;
      return Status::Ok();
    case Option::kPace: {
      StatusOr<double> pace = api::ParsePace(value);
      if (!pace.ok()) return UsageError(command, pace.status().message());
      args->api.pace = *pace;
      return Status::Ok();
    }
    case Option::kEvents:
      if (value.empty()) return UsageError(command, flag + " needs an events.csv file");
      args->events_file = std::string(value);
      return Status::Ok();
    case Option::kSet:  // parsed by control/sweep/, which knows the scenario's fields
      args->set.emplace_back(value);
      return Status::Ok();
    case Option::kCores: {
      uint32_t cores = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), cores);
      if (value.empty() || ec != std::errc() || end != value.data() + value.size() || cores < 1 ||
          cores > MachineCores()) {
        return UsageError(command, flag + " takes a whole number from 1 to " +
                                       std::to_string(MachineCores()) +
                                       ", the machine's cores, got " + quoted);
      }
      args->cores = cores;
      return Status::Ok();
    }
    case Option::kJobs: {
      int jobs = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), jobs);
      if (value.empty() || ec != std::errc() || end != value.data() + value.size() || jobs < 1 ||
          jobs > kMaxJobs) {
        return UsageError(command, flag + " takes a whole number from 1 to " +
                                       std::to_string(kMaxJobs) + ", got " + quoted);
      }
      args->jobs = jobs;
      return Status::Ok();
    }
  }
  return Status::Ok();
}

StatusOr<CliArgs> ParseCommand(Command command, std::span<const std::string_view> rest) {
  CliArgs args;
  args.command = command;
  for (std::string_view arg : rest) {
    if (IsHelp(arg)) {  // help wins over everything else on the line
      CliArgs help;
      help.help_topic = command;
      return help;
    }
  }
  const std::span<const OptionSpec> options = OptionsOf(command);
  for (size_t i = 0; i < rest.size(); ++i) {
    const std::string_view arg = rest[i];
    if (!arg.starts_with("-")) {
      if (!args.scenario_path.empty()) {
        return UsageError(command,
                          "unexpected argument '" + std::string(arg) + "': give one " +
                              (command == Command::kReport ? "directory" : "scenario file"));
      }
      args.scenario_path = std::string(arg);
      continue;
    }
    // --name VALUE or --name=VALUE
    const size_t eq = arg.find('=');
    const std::string_view name = arg.substr(0, eq);
    const OptionSpec* spec = nullptr;
    for (const OptionSpec& s : options) {
      if (s.name == name) spec = &s;
    }
    if (spec == nullptr) {
      return UsageError(command, "unknown option '" + std::string(name) + "'");
    }
    std::string_view value;
    if (eq != std::string_view::npos) {
      if (!spec->takes_value) {
        return UsageError(command, std::string(name) + " takes no value");
      }
      value = arg.substr(eq + 1);
    } else if (spec->takes_value) {
      // EAL arguments start with '-' themselves, so only --eal may take a dash-led value; "-"
      // alone is stdout.
      const bool next_is_value =
          i + 1 < rest.size() &&
          (spec->option == Option::kEal || rest[i + 1] == "-" || !rest[i + 1].starts_with("--"));
      if (!next_is_value) return UsageError(command, std::string(name) + " needs a value");
      value = rest[++i];
    }
    if (Status s = ApplyOption(command, *spec, value, &args); !s.ok()) return s;
  }
  if (args.command == Command::kRun && (args.eal_args || args.duration_s)) {
    return UsageError(command, "--eal and --duration-s go with --realtime");
  }
  // Before the API's own checks: with or without --api, serve takes no --pace.
  if (args.command == Command::kServe && args.api.pace) {
    return UsageError(command, "--pace is for software runs; serve runs in real time");
  }
  if (Status s = api::CheckApiOptions(args.api); !s.ok()) return UsageError(command, s.message());
  if (command == Command::kSweep && args.set.empty()) {
    return UsageError(command, "give the values to run, as --set PATH=V1,V2,...");
  }
  if (args.command == Command::kServe && !args.events_file.empty()) {
    return UsageError(command, "--events replays in software mode, not with --realtime");
  }
  if (args.dot_file == "-" && args.json_file == "-") {
    return UsageError(command, "--dot - and --json - cannot both go to stdout");
  }
  if (args.scenario_path.empty() && command == Command::kReport) {
    return UsageError(command, "missing OUTDIR, the output directory of a run");
  }
  if (args.scenario_path.empty()) {
    return UsageError(command, "missing SCENARIO, the scenario file to " +
                                   std::string(command == Command::kValidate ? "check"
                                               : command == Command::kTopo   ? "describe"
                                               : command == Command::kExport ? "export"
                                               : command == Command::kSweep  ? "sweep"
                                                                             : "run"));
  }
  return args;
}

}  // namespace

StatusOr<CliArgs> ParseCliArgs(int argc, char** argv) {
  const std::vector<std::string_view> all(argv + 1, argv + argc);
  if (all.empty()) {
    return Status::Error("no command given (see 'fabric-emu --help')");
  }
  const std::string_view first = all[0];
  CliArgs args;
  if (IsHelp(first)) return args;  // the overview
  if (first == "--version") {
    args.command = Command::kVersion;
    return args;
  }
  if (first == "help") {
    if (all.size() > 1) {
      const std::optional<Command> topic = CommandNamed(all[1]);
      if (!topic) {
        return Status::Error(
            "help: no command '" + std::string(all[1]) +
            "'; commands are run, validate, serve, topo, export, report and sweep");
      }
      args.help_topic = *topic;
    }
    return args;
  }
  const std::optional<Command> command = CommandNamed(first);
  if (!command) {
    const std::string what = first.starts_with("-") ? "unknown option '" : "unknown command '";
    return Status::Error(what + std::string(first) +
                         "'; commands are run, validate, serve, topo, export, report and sweep "
                         "(see 'fabric-emu --help')");
  }
  return ParseCommand(*command, std::span(all).subspan(1));
}

std::string OutputDir(const CliArgs& args, const fabric_emu::Scenario& scenario) {
  return args.out_dir.empty() ? "out/" + scenario.name() : args.out_dir;
}

void ApplyCliOverrides(const CliArgs& args, fabric_emu::Scenario* scenario) {
  if (args.seed) scenario->mutable_run()->set_seed(*args.seed);
  if (args.quiet) scenario->mutable_run()->set_progress(false);
  if (args.cores) scenario->mutable_run()->set_cores(*args.cores);
  if (args.eal_args) scenario->mutable_realtime()->set_eal_args(*args.eal_args);
  if (args.duration_s) scenario->mutable_run()->set_stop_ns(*args.duration_s * 1e9);
}

}  // namespace fe::control
