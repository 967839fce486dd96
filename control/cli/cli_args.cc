#include "control/cli/cli_args.h"

#include <span>
#include <string_view>
#include <vector>

#include "control/cli/cli_options.h"

namespace fe::control {
namespace {

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

bool IsHelp(std::string_view arg) { return arg == "--help" || arg == "-h"; }

// "run: <what> (see 'fabric-emu run --help')"; the caller prefixes the program name.
Status UsageError(Command command, const std::string& what) {
  const std::string name(NameOf(command));
  return Status::Error(name + ": " + what + " (see 'fabric-emu " + name + " --help')");
}

// The option `name` names for `command`; null if it takes none by that name. -h and --help are
// taken before any option, so they get here only with a value (--help=x), which is unknown.
const OptionSpec* FindOption(Command command, std::string_view name) {
  for (const OptionGroup& group : OptionGroupsOf(command)) {
    for (const OptionSpec& spec : group.options) {
      if (spec.apply != nullptr && (spec.name == name || spec.short_name == name)) return &spec;
    }
  }
  return nullptr;
}

// Takes the option at rest[*i] (--name VALUE or --name=VALUE), and its value, moving *i past it.
Status TakeOption(Command command, std::span<const std::string_view> rest, size_t* i,
                  CliArgs* args) {
  const std::string_view arg = rest[*i];
  const size_t eq = arg.find('=');
  const std::string_view name = arg.substr(0, eq);
  const OptionSpec* spec = FindOption(command, name);
  if (spec == nullptr) {
    return UsageError(command, "unknown option '" + std::string(name) + "'");
  }
  const bool takes_value = !spec->placeholder.empty();
  std::string_view value;
  if (eq != std::string_view::npos) {
    if (!takes_value) return UsageError(command, std::string(name) + " takes no value");
    value = arg.substr(eq + 1);
  } else if (takes_value) {
    // A value may not look like the next option; "-" alone is stdout.
    const bool next_is_value =
        *i + 1 < rest.size() &&
        (spec->value_may_start_with_dash || rest[*i + 1] == "-" || !rest[*i + 1].starts_with("--"));
    if (!next_is_value) return UsageError(command, std::string(name) + " needs a value");
    value = rest[++*i];
  }
  if (Status s = spec->apply(name, value, args); !s.ok()) return UsageError(command, s.message());
  return Status::Ok();
}

// What no single option can check: options that do not go together, and the ones required.
Status CheckCombination(Command command, const CliArgs& args) {
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
  for (size_t i = 0; i < rest.size(); ++i) {
    const std::string_view arg = rest[i];
    if (arg.starts_with("-")) {
      if (Status s = TakeOption(command, rest, &i, &args); !s.ok()) return s;
      continue;
    }
    if (!args.scenario_path.empty()) {
      return UsageError(command, "unexpected argument '" + std::string(arg) + "': give one " +
                                     (command == Command::kReport ? "directory" : "scenario file"));
    }
    args.scenario_path = std::string(arg);
  }
  if (Status s = CheckCombination(command, args); !s.ok()) return s;
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
