#include "control/cli_args.h"

#include <charconv>
#include <cmath>
#include <span>
#include <string_view>
#include <vector>

#include "control/scenario_validator.h"
#include "dataplane/eal.h"

namespace fe::control {
namespace {

constexpr std::string_view kVersion = "0.1.0";

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
  kExportFile
};

struct OptionSpec {
  std::string_view name;
  Option option;
  bool takes_value;
};

// `run --realtime` is `serve`; the real-time options are taken only together with it.
constexpr OptionSpec kRunOptions[] = {
    {"--out", Option::kOut, true},      {"--seed", Option::kSeed, true},
    {"--quiet", Option::kQuiet, false}, {"--realtime", Option::kRealtime, false},
    {"--eal", Option::kEal, true},      {"--duration-s", Option::kDurationS, true},
};
constexpr OptionSpec kServeOptions[] = {
    {"--out", Option::kOut, true},
    {"--seed", Option::kSeed, true},
    {"--quiet", Option::kQuiet, false},
    {"--eal", Option::kEal, true},
    {"--duration-s", Option::kDurationS, true},
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
    case Command::kHelp:
      return "help";
    case Command::kVersion:
      return "--version";
  }
  return "";
}

// --duration-s becomes run.stop_ns, which validation holds to kMaxScenarioTimeNs.
constexpr double kMaxDurationS = kMaxScenarioTimeNs * 1e-9;

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
    case Option::kExportFile:
      if (value.empty()) return UsageError(command, flag + " needs a file, or - for stdout");
      args->export_file = std::string(value);
      return Status::Ok();
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
                          "unexpected argument '" + std::string(arg) + "': give one scenario file");
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
  if (args.dot_file == "-" && args.json_file == "-") {
    return UsageError(command, "--dot - and --json - cannot both go to stdout");
  }
  if (args.scenario_path.empty()) {
    return UsageError(command, "missing SCENARIO, the scenario file to " +
                                   std::string(command == Command::kValidate ? "check"
                                               : command == Command::kTopo   ? "describe"
                                               : command == Command::kExport ? "export"
                                                                             : "run"));
  }
  return args;
}

constexpr std::string_view kExitStatusHelp =
    "Exit status:\n"
    "  0  success\n"
    "  1  the scenario was valid but the run failed (the error says why)\n"
    "  2  bad usage, or the scenario was refused: every error is printed as\n"
    "     FILE:LINE: field.path: reason (a syntax error as FILE:LINE:COLUMN: reason)\n";

// validate runs nothing, so it cannot fail the way a run does.
constexpr std::string_view kValidateExitStatusHelp =
    "Exit status:\n"
    "  0  the scenario is valid\n"
    "  2  bad usage, or the scenario was refused: every error is printed as\n"
    "     FILE:LINE: field.path: reason (a syntax error as FILE:LINE:COLUMN: reason)\n";

constexpr std::string_view kTopoExitStatusHelp =
    "Exit status:\n"
    "  0  the fabric was described\n"
    "  1  an output file could not be written\n"
    "  2  bad usage, or the scenario was refused: every error is printed as\n"
    "     FILE:LINE: field.path: reason (a syntax error as FILE:LINE:COLUMN: reason)\n";

constexpr std::string_view kExportExitStatusHelp =
    "Exit status:\n"
    "  0  the workload was written\n"
    "  1  the output file could not be written\n"
    "  2  bad usage, or the scenario was refused: every error is printed as\n"
    "     FILE:LINE: field.path: reason (a syntax error as FILE:LINE:COLUMN: reason)\n";

constexpr std::string_view kOverviewHelp =
    "fabric-emu: a RoCEv2 datacenter-fabric emulator. It runs RoCE traffic across an emulated\n"
    "fabric (fat-tree, Clos, rail-optimised, scale-up domains, any graph) of switches and NICs,\n"
    "with scheduled failures, and reports flow completion times, queues and drops.\n"
    "\n"
    "Usage:\n"
    "  fabric-emu run SCENARIO.textproto [--out DIR] [--seed N] [--quiet]\n"
    "  fabric-emu validate SCENARIO.textproto\n"
    "  fabric-emu serve SCENARIO.textproto [--eal \"ARGS\"] [--duration-s S] [--out DIR]\n"
    "  fabric-emu topo SCENARIO.textproto [--pair A,B] [--dot FILE|-] [--json FILE|-]\n"
    "  fabric-emu export SCENARIO.textproto [-o FILE] [--seed N]\n"
    "  fabric-emu COMMAND --help       details of one command\n"
    "  fabric-emu --version\n"
    "\n"
    "Commands:\n"
    "  run       emulate the scenario in virtual time, as fast as the CPU allows, and write\n"
    "            DIR/summary.json and DIR/flows.csv; the same scenario and seed give the same\n"
    "            results on every machine\n"
    "  validate  check a scenario without running it\n"
    "  serve     real-time mode: real hosts on DPDK ports send through the emulated fabric,\n"
    "            alongside the scenario's emulated traffic\n"
    "  topo      describe the fabric the scenario builds: nodes, ports, bisection,\n"
    "            oversubscription, diameter, paths, cables and optics; Graphviz and JSON\n"
    "  export    write the scenario's messages (every traffic section, with their\n"
    "            dependencies) as a trace in the native CSV format, to replay or to edit\n"
    "\n"
    "A scenario is a Protobuf text file; docs/scenario.md describes every field.\n"
    "\n"
    "Examples:\n"
    "  fabric-emu run scenarios/default.textproto\n"
    "  fabric-emu run scenarios/bench_k8.textproto --out results/k8 --seed 7\n"
    "  fabric-emu validate my_scenario.textproto\n"
    "\n";

constexpr std::string_view kRunHelp =
    "Usage: fabric-emu run SCENARIO.textproto [--out DIR] [--seed N] [--quiet] [--realtime]\n"
    "\n"
    "Emulates SCENARIO in software mode: virtual time, no NIC, no hugepages, no DPDK arguments.\n"
    "The whole scenario is validated first; if any field is wrong nothing runs.\n"
    "\n"
    "Options:\n"
    "  --out DIR   where the results go (created if missing). Default: out/<scenario name>.\n"
    "                DIR/summary.json  run totals: flows completed, FCT p50/p99/max, bytes and\n"
    "                                  packets delivered, drops, simulated and wall time,\n"
    "                                  packet-hops per wall second\n"
    "                DIR/flows.csv     one row per flow (message): start, finish, FCT, ideal\n"
    "                                  FCT and slowdown (empty for a flow not delivered),\n"
    "                                  its job, when it really started, what it waited for\n"
    "                DIR/collectives.csv  with collective or training sections: one row per\n"
    "                                  operation, time, algbw and busbw (and a table in\n"
    "                                  nccl-tests' layout on stdout)\n"
    "                DIR/jobs.csv      with training sections: each iteration's time and\n"
    "                                  communication share\n"
    "                DIR/kv.csv        with kv_cache sections: each request's KV bytes,\n"
    "                                  transfer time and queueing share\n"
    "                DIR/rates.csv     with run.rate_sample_interval_ns: each flow's rate\n"
    "                DIR/queues.csv    with run.queue_sample_interval_ns: each queue's depth\n"
    "                DIR/<capture.file> with a capture section: a pcapng of chosen ports\n"
    "              docs/scenario.md (Outputs) describes every field and column;\n"
    "              docs/workloads.md the workloads behind them.\n"
    "  --seed N    replaces run.seed (0 to 2^64-1), the seed of every random choice: traffic\n"
    "              pattern, ECMP hashing, ECN marks\n"
    "  --quiet     no progress line on stderr (as run { progress: false })\n"
    "  --realtime  real-time mode, the same as `fabric-emu serve` (see serve --help), which\n"
    "              also takes --eal \"ARGS\" and --duration-s S\n"
    "  -h, --help  this text\n"
    "\n"
    "Examples:\n"
    "  fabric-emu run scenarios/default.textproto\n"
    "  fabric-emu run scenarios/bench_k16.textproto --out results/k16 --seed 2 --quiet\n"
    "\n";

constexpr std::string_view kValidateHelp =
    "Usage: fabric-emu validate SCENARIO.textproto\n"
    "\n"
    "Checks SCENARIO as `run` would before running it (syntax, unknown fields, ranges, limits\n"
    "between fields, host indices within the topology) and prints every error found, or\n"
    "\"SCENARIO: valid\". Runs nothing and writes no files.\n"
    "\n"
    "Example:\n"
    "  fabric-emu validate scenarios/default.textproto && echo valid\n"
    "\n";

constexpr std::string_view kTopoHelp =
    "Usage: fabric-emu topo SCENARIO.textproto [--pair A,B] [--dot FILE|-] [--json FILE|-]\n"
    "\n"
    "Builds the scenario's fabric (after checking the whole scenario, as run does) and\n"
    "describes it; runs no traffic. The text on stdout gives:\n"
    "  nodes             hosts (endpoints), switches and links; per role its tier, how many\n"
    "                    nodes and the fewest and most ports one of them uses\n"
    "  bisection         the maximum flow from the first half of the hosts (by index) to\n"
    "                    the second, every link carrying its rate each way\n"
    "  oversubscription  per switch tier: capacity towards the tier below / towards the\n"
    "                    tier above (2.00:1 means twice as much down as up)\n"
    "  diameter          the longest shortest path between two hosts, in links\n"
    "  paths             shortest paths and their length between the --pair endpoints\n"
    "  cables, optics    links per media, transceiver ends, optics power in W\n"
    "                    (2 ends x pJ/bit x rate per link) and CPO optical engines\n"
    "docs/topology.md explains each figure.\n"
    "\n"
    "Options:\n"
    "  --pair A,B      the endpoints whose paths are counted, as host indices or names\n"
    "                  (e.g. 0,255 or h0,h255). Default: host 0 and the last host\n"
    "  --dot FILE      write the graph for Graphviz, switches ranked by tier\n"
    "                  (render: dot -Tsvg FILE -o fabric.svg); - writes it to stdout\n"
    "  --json FILE     write the graph (nodes, links, link classes) and every figure above\n"
    "                  as JSON; - writes it to stdout\n"
    "  -h, --help      this text\n"
    "\n"
    "Examples:\n"
    "  fabric-emu topo scenarios/clos_2to1.textproto\n"
    "  fabric-emu topo scenarios/rail_scaleup.textproto --pair h0,h8 --json fabric.json\n"
    "  fabric-emu topo scenarios/default.textproto --dot - | dot -Tsvg -o fabric.svg\n"
    "\n";

constexpr std::string_view kExportHelp =
    "Usage: fabric-emu export SCENARIO.textproto [-o FILE] [--seed N]\n"
    "\n"
    "Writes the scenario's whole workload as a run would send it: every traffic section\n"
    "(patterns, collectives, training, KV-cache transfers, traces) merged and numbered as in\n"
    "flows.csv, random patterns drawn from the seed. One CSV row per message, under the header\n"
    "  id,src,dst,bytes,start_ns,after,delay_ns,dscp,job\n"
    "  id        the message's number, as in flows.csv\n"
    "  src, dst  host indices\n"
    "  bytes     its size\n"
    "  start_ns  the earliest it may start (exact to the picosecond)\n"
    "  after     ids of the messages it waits for (their last byte delivered), space-separated\n"
    "  delay_ns  compute time from the last of those to its start\n"
    "  dscp, job its traffic class and the job it belongs to\n"
    "Nothing runs. docs/workloads.md (Trace replay and export) describes the format.\n"
    "\n"
    "To replay it, keep the scenario and replace its traffic sections with\n"
    "  traffic { trace { file: \"FILE\" } }\n"
    "(a relative FILE starts at that scenario's folder). With the same seed the replay writes\n"
    "the same flows.csv, byte for byte. A trace section also replays htsim connection matrices\n"
    "(.cm) and HPCC/ns-3 flow files (.txt); its time_scale, start_ns, host_offset and host\n"
    "fields rescale, shift and place a trace (docs/scenario.md, TraceFile).\n"
    "\n"
    "Options:\n"
    "  -o, --output FILE  where the CSV goes; - or none: stdout\n"
    "  --seed N           replaces run.seed (0 to 2^64-1): the seed the random patterns\n"
    "                     (permutation, incast, cdf_load, placement) are drawn from; replay\n"
    "                     with the same one\n"
    "  -h, --help         this text\n"
    "\n"
    "Examples:\n"
    "  fabric-emu export scenarios/default.textproto -o default.csv\n"
    "  fabric-emu export scenarios/trace_htsim.textproto | head\n"
    "\n";

constexpr std::string_view kServeHelp =
    "Usage: fabric-emu serve SCENARIO.textproto [--eal \"ARGS\"] [--duration-s S] [--out DIR]\n"
    "                        [--seed N] [--quiet]\n"
    "\n"
    "Real-time mode: the DPDK ports of the scenario's realtime section take the place of\n"
    "emulated hosts, and real servers' packets cross the emulated fabric in real time, with the\n"
    "scenario's emulated traffic. Ctrl-C stops cleanly and writes DIR/summary.json.\n"
    "\n"
    "Options:\n"
    "  --eal \"ARGS\"     EAL arguments, replacing realtime.eal_args (e.g. \"-l 0-1\");\n"
    "                   default: safe ones chosen from the ports, printed at start\n"
    "  --duration-s S   stop after S seconds (replaces run.stop_ns); default: until Ctrl-C\n"
    "  --out DIR        where the results go. Default: out/<scenario name>\n"
    "  --seed N         replaces run.seed, for the emulated traffic\n"
    "  --quiet          no progress line on stderr\n"
    "  -h, --help       this text\n"
    "\n"
    "Example:\n"
    "  sudo fabric-emu serve lab.textproto --duration-s 60\n"
    "\n";

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
        return Status::Error("help: no command '" + std::string(all[1]) +
                             "'; commands are run, validate, serve, topo and export");
      }
      args.help_topic = *topic;
    }
    return args;
  }
  const std::optional<Command> command = CommandNamed(first);
  if (!command) {
    const std::string what = first.starts_with("-") ? "unknown option '" : "unknown command '";
    return Status::Error(
        what + std::string(first) +
        "'; commands are run, validate, serve, topo and export (see 'fabric-emu --help')");
  }
  return ParseCommand(*command, std::span(all).subspan(1));
}

std::string HelpText(Command topic) {
  std::string_view body;
  switch (topic) {
    case Command::kRun:
      body = kRunHelp;
      break;
    case Command::kValidate:
      body = kValidateHelp;
      break;
    case Command::kServe:
      body = kServeHelp;
      break;
    case Command::kTopo:
      body = kTopoHelp;
      break;
    case Command::kExport:
      body = kExportHelp;
      break;
    case Command::kHelp:
    case Command::kVersion:
      body = kOverviewHelp;
      break;
  }
  return std::string(body) + std::string(topic == Command::kValidate ? kValidateExitStatusHelp
                                         : topic == Command::kTopo   ? kTopoExitStatusHelp
                                         : topic == Command::kExport ? kExportExitStatusHelp
                                                                     : kExitStatusHelp);
}

std::string VersionText() { return "fabric-emu " + std::string(kVersion) + "\n"; }

std::string OutputDir(const CliArgs& args, const fabric_emu::Scenario& scenario) {
  return args.out_dir.empty() ? "out/" + scenario.name() : args.out_dir;
}

void ApplyCliOverrides(const CliArgs& args, fabric_emu::Scenario* scenario) {
  if (args.seed) scenario->mutable_run()->set_seed(*args.seed);
  if (args.quiet) scenario->mutable_run()->set_progress(false);
  if (args.eal_args) scenario->mutable_realtime()->set_eal_args(*args.eal_args);
  if (args.duration_s) scenario->mutable_run()->set_stop_ns(*args.duration_s * 1e9);
}

}  // namespace fe::control
