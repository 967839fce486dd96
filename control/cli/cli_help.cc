// The help texts of fabric-emu and of each command (declared in control/cli/cli_args.h): the
// prose around the lists of options, which come from the option table (cli_options.h).
#include "control/cli/cli_args.h"

#include <span>
#include <string>
#include <string_view>

#include "control/cli/cli_options.h"
#include "control/scenario/realtime_eal.h"

namespace fe::control {
namespace {

constexpr std::string_view kVersion = "0.1.0";

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
    "  fabric-emu run SCENARIO.textproto [--out DIR] [--seed N] [--quiet] [--events FILE]\n"
    "                 [--report] [--set PATH=VALUE]... [--cores N] [--realtime]\n"
    "                 [--api HOST:PORT [--pace X] ...]\n"
    "  fabric-emu validate SCENARIO.textproto\n"
    "  fabric-emu serve SCENARIO.textproto [--eal \"ARGS\"] [--duration-s S] [--out DIR]\n"
    "                   [--seed N] [--quiet] [--api HOST:PORT [--api-hold] ...]\n"
    "  fabric-emu topo SCENARIO.textproto [--pair A,B] [--dot FILE|-] [--json FILE|-]\n"
    "  fabric-emu export SCENARIO.textproto [-o FILE] [--seed N]\n"
    "  fabric-emu report OUTDIR\n"
    "  fabric-emu sweep SCENARIO.textproto --set PATH=V1,V2,... [--set PATH=...]...\n"
    "                   [--jobs N] [--out DIR] [--quiet] [--report]\n"
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
    "  report    draw a run's outputs as one HTML page (charts, heatmaps, timelines)\n"
    "  sweep     run the scenario over a grid of field values (link rates, thresholds, ...)\n"
    "            in parallel and tabulate the headline results: DIR/sweep.csv, sweep.html\n"
    "\n"
    "A scenario is a Protobuf text file; docs/scenario.md describes every field.\n"
    "\n"
    "Examples:\n"
    "  fabric-emu run scenarios/default.textproto\n"
    "  fabric-emu run scenarios/bench_k8.textproto --out results/k8 --seed 7\n"
    "  fabric-emu validate my_scenario.textproto\n"
    "\n";

constexpr std::string_view kRunHelp =
    "Usage: fabric-emu run SCENARIO.textproto [--out DIR] [--seed N] [--quiet] [--events FILE]\n"
    "                      [--report] [--set PATH=VALUE] [--cores N] [--realtime]\n"
    "                      [--api HOST:PORT [--pace X] ...]\n"
    "\n"
    "Emulates SCENARIO in software mode: virtual time, no NIC, no hugepages, no DPDK arguments.\n"
    "The whole scenario is validated first; if any field is wrong nothing runs.\n"
    "\n";

// After its options (cli_options.cc).
constexpr std::string_view kRunExamplesHelp =
    "Examples:\n"
    "  fabric-emu run scenarios/default.textproto\n"
    "  fabric-emu run scenarios/bench_k16.textproto --out results/k16 --seed 2 --quiet\n"
    "  fabric-emu run scenarios/default.textproto --api 127.0.0.1:9100 --pace 0.001\n"
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
    "\n";

constexpr std::string_view kTopoExamplesHelp =
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
    "\n";

constexpr std::string_view kExportExamplesHelp =
    "Examples:\n"
    "  fabric-emu export scenarios/default.textproto -o default.csv\n"
    "  fabric-emu export scenarios/trace_htsim.textproto | head\n"
    "\n";

constexpr std::string_view kSweepHelp =
    "Usage: fabric-emu sweep SCENARIO.textproto --set PATH=V1,V2,... [--set PATH=...]\n"
    "                        [--jobs N] [--out DIR] [--quiet] [--report]\n"
    "\n"
    "Runs SCENARIO once for every point of a grid: the cartesian product of the --set lists\n"
    "(the first --set varies slowest). Every point is validated before anything runs; one\n"
    "refused point refuses the sweep, naming it. Each point runs as `fabric-emu run` in its\n"
    "own directory, DIR/point-NNN-<field>=<value>-..., on its own point.textproto there (run it\n"
    "alone with `fabric-emu run point.textproto --out .` from that directory).\n"
    "\n"
    "Outputs:\n"
    "  DIR/sweep.csv    one row per point: its values, then flows completed, FCT and slowdown\n"
    "                   p50/p99, makespan, goodput, drops, ECN marks, pause frames, CNPs,\n"
    "                   retransmissions, deepest queue (and training iteration times), read\n"
    "                   from the point's summary.json; its directory and status\n"
    "  DIR/sweep.html   the same figures against each swept field, and the table\n"
    "\n"
    "Ctrl-C stops launching, ends the running points and keeps the finished ones; the same\n"
    "command again resumes: a point finished with the same scenario is not run again.\n"
    "\n";

constexpr std::string_view kSweepExamplesHelp =
    "Example:\n"
    "  fabric-emu sweep scenarios/clos_2to1.textproto \\\n"
    "      --set 'topology.link_class[1].rate_gbps=400,800,1600' --jobs 2\n"
    "\n";

constexpr std::string_view kSweepExitStatusHelp =
    "Exit status:\n"
    "  0    every point ran\n"
    "  1    a point's run failed (its DIR/<point>/run.log says why); the others ran\n"
    "  2    bad usage, or a point was refused: nothing ran\n"
    "  130  stopped by SIGINT (143: SIGTERM, 129: SIGHUP); the finished points are kept\n";

constexpr std::string_view kServeHelp =
    "Usage: fabric-emu serve SCENARIO.textproto [--eal \"ARGS\"] [--duration-s S] [--out DIR]\n"
    "                        [--seed N] [--quiet] [--api HOST:PORT [--api-hold] ...]\n"
    "\n"
    "Real-time mode: the DPDK ports of the scenario's realtime section take the place of\n"
    "emulated hosts, and real servers' packets cross the emulated fabric in real time, with the\n"
    "scenario's emulated traffic. Ctrl-C stops cleanly and writes DIR/summary.json.\n"
    "\n";

constexpr std::string_view kServeExamplesHelp =
    "Examples:\n"
    "  sudo fabric-emu serve lab.textproto --duration-s 60\n"
    "  sudo fabric-emu serve lab.textproto --api 127.0.0.1:9100\n"
    "\n";

constexpr std::string_view kReportHelp =
    "Usage: fabric-emu report OUTDIR\n"
    "\n"
    "Writes OUTDIR/report.html from the outputs a run left in OUTDIR (its --out): one\n"
    "self-contained page, no script and nothing fetched, that opens offline in any browser.\n"
    "It shows the run's parameters and results, the FCT slowdown CDF per flow-size bucket and\n"
    "slowdown against flow size, the busiest queues over time (queues.csv), the most\n"
    "throttled flows' rates (rates.csv), PFC paused time and link utilisation per switch and\n"
    "port, failures and commands, and jobs, iterations and collectives on a timeline. A part\n"
    "whose data the run did not write says which scenario field records it. Every number is\n"
    "the one in summary.json or the CSVs; the same directory gives the same page, byte for\n"
    "byte. `run --report` writes it at the end of a run. docs/report.md explains each chart.\n"
    "\n"
    "Exit status:\n"
    "  0  the page was written\n"
    "  1  the page could not be written\n"
    "  2  bad usage, or OUTDIR is not a run's output: no such directory, no summary.json, or\n"
    "     a malformed file (the error names FILE:LINE)\n"
    "\n"
    "Example:\n"
    "  fabric-emu run scenarios/default.textproto --out out/default\n"
    "  fabric-emu report out/default && xdg-open out/default/report.html\n";

}  // namespace

std::string HelpText(Command topic) {
  // The lists of options come from the table the parser reads (cli_options.cc), in order.
  const std::span<const OptionGroup> groups = OptionGroupsOf(topic);
  const auto options = [&](size_t group) { return OptionGroupHelp(groups[group]); };
  std::string body;
  switch (topic) {
    case Command::kRun:
      body = std::string(kRunHelp) + options(0) + options(1) + std::string(kRunExamplesHelp);
      break;
    case Command::kValidate:
      body = kValidateHelp;
      break;
    case Command::kServe:
      body = std::string(kServeHelp) + options(0) + std::string(kServeEalHelp) + options(1) +
             std::string(kServeExamplesHelp);
      break;
    case Command::kTopo:
      body = std::string(kTopoHelp) + options(0) + std::string(kTopoExamplesHelp);
      break;
    case Command::kExport:
      body = std::string(kExportHelp) + options(0) + std::string(kExportExamplesHelp);
      break;
    case Command::kReport:
      return std::string(kReportHelp);  // with its own exit status
    case Command::kSweep:
      body = std::string(kSweepHelp) + options(0) + std::string(kSweepExamplesHelp);
      break;
    case Command::kHelp:
    case Command::kVersion:
      body = kOverviewHelp;
      break;
  }
  return body + std::string(topic == Command::kValidate ? kValidateExitStatusHelp
                            : topic == Command::kTopo   ? kTopoExitStatusHelp
                            : topic == Command::kExport ? kExportExitStatusHelp
                            : topic == Command::kSweep  ? kSweepExitStatusHelp
                                                        : kExitStatusHelp);
}

std::string VersionText() { return "fabric-emu " + std::string(kVersion) + "\n"; }

}  // namespace fe::control
