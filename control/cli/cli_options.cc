#include "control/cli/cli_options.h"

#include <algorithm>

#include "control/cli/option_values.h"

namespace fe::control {
namespace {

// Taken by the command but described elsewhere: in another option's description (run's --eal
// with --realtime) or not at all, to be refused with a reason once parsing ends (serve's --pace).
constexpr OptionSpec Unlisted(OptionSpec spec) {
  spec.help = {};
  return spec;
}

constexpr OptionSpec kHelpOption = {"--help", "-h", "", nullptr, "this text"};

constexpr OptionSpec kRunOptions[] = {
    {"--out", "", "DIR", SetOutDir,
     "where the results go (created if missing). Default: out/<scenario name>.\n"
     "  DIR/summary.json  run totals: flows completed, FCT p50/p99/max, bytes and\n"
     "                    packets delivered, drops, simulated and wall time,\n"
     "                    packet-hops per wall second\n"
     "  DIR/flows.csv     one row per flow (message): start, finish, FCT, ideal\n"
     "                    FCT and slowdown (empty for a flow not delivered),\n"
     "                    its job, when it really started, what it waited for\n"
     "  DIR/collectives.csv  with collective or training sections: one row per\n"
     "                    operation, time, algbw and busbw (and a table in\n"
     "                    nccl-tests' layout on stdout)\n"
     "  DIR/jobs.csv      with training sections: each iteration's time and\n"
     "                    communication share\n"
     "  DIR/kv.csv        with kv_cache sections: each request's KV bytes,\n"
     "                    transfer time and queueing share\n"
     "  DIR/rates.csv     with run.rate_sample_interval_ns: each flow's rate\n"
     "  DIR/queues.csv    with run.queue_sample_interval_ns: each queue's depth\n"
     "  DIR/events.csv    with a schedule, --events or an API command: each\n"
     "                    command applied, its time and source (docs/commands.md)\n"
     "  DIR/links.csv     one row per egress port: packets, bytes, busy time and\n"
     "                    utilisation of each link direction\n"
     "  DIR/scenario.textproto  the scenario as run, command-line options applied\n"
     "  DIR/report.html   with --report: the outputs drawn as one page\n"
     "  DIR/api-token     with --api and no --api-token-file: the bearer token\n"
     "                    for POST calls (mode 600)\n"
     "  DIR/<capture.file> with a capture section: a pcapng of chosen ports\n"
     "docs/scenario.md (Outputs) describes every field and column;\n"
     "docs/workloads.md the workloads behind them."},
    {"--seed", "", "N", SetSeed,
     "replaces run.seed (0 to 2^64-1), the seed of every random choice: traffic\n"
     "pattern, ECMP hashing, ECN marks"},
    {"--quiet", "", "", SetQuiet, "no progress line on stderr (as run { progress: false })"},
    {"--events", "", "FILE", SetEvents,
     "replays a run: the commands of FILE (an events.csv) run at their times\n"
     "instead of the scenario's schedule; same scenario and seed, same results"},
    {"--report", "", "", SetReport, "at the end, also write DIR/report.html (see report --help)"},
    {"--set", "", "PATH=VALUE", AddSet,
     "replaces one scenario field, e.g. topology.fat_tree.link_rate_gbps=400,\n"
     "traffic[0].permutation.message_bytes=1e6, nic.cc={dcqcn {}}; repeatable.\n"
     "The scenario is validated again with the values in (docs/sweep.md)"},
    {"--cores", "", "N", SetCores,
     "replaces run.cores: runs on N threads (1 to the machine's cores), with the\n"
     "same outputs to the byte as one (docs/multicore.md)"},
    {"--realtime", "", "", SetRealtime,
     "real-time mode, the same as `fabric-emu serve` (see serve --help), which\n"
     "also takes --eal \"ARGS\" and --duration-s S"},
    kHelpOption,
    Unlisted({"--eal", "", "\"ARGS\"", SetEalArgs, "", true}),
    Unlisted({"--duration-s", "", "S", SetDurationS, ""}),
};

constexpr OptionSpec kServeOptions[] = {
    {"--eal", "", "\"ARGS\"", SetEalArgs,
     "EAL arguments, replacing realtime.eal_args (e.g. \"-l 0-1\"),\n"
     "merged into serve's defaults as below",
     true},
    {"--duration-s", "", "S", SetDurationS,
     "stop after S seconds (replaces run.stop_ns); default: until Ctrl-C"},
    {"--out", "", "DIR", SetOutDir, "where the results go. Default: out/<scenario name>"},
    {"--seed", "", "N", SetSeed, "replaces run.seed, for the emulated traffic"},
    {"--quiet", "", "", SetQuiet, "no progress line on stderr"},
    kHelpOption,
};

constexpr OptionSpec kApiOption = {
    "--api", "", "HOST:PORT", SetApiListen,
    "serve GET /v1/status, /metrics (Prometheus), /v1/flows and\n"
    "POST /v1/commands, /v1/shutdown there (port 0: any free port);\n"
    "loopback addresses only unless --api-allow-remote is given"};
constexpr OptionSpec kApiTokenFileOption = {
    "--api-token-file", "", "F", SetApiTokenFile,
    "the bearer token for POST calls, from F (mode 600); default: a\n"
    "random one, printed and written to DIR/api-token (mode 600)"};
constexpr OptionSpec kApiAllowRemoteOption = {"--api-allow-remote", "", "", SetApiAllowRemote,
                                              "allow a --api address that is not loopback"};
constexpr OptionSpec kApiHoldOption = {
    "--api-hold", "", "", SetApiHold,
    "keep answering after the run, state \"finished\", until\n"
    "POST /v1/shutdown or a signal (not after a run a signal stopped)"};
constexpr OptionSpec kPaceOption = {
    "--pace", "", "X", SetPace,
    "at most X times real time, 1e-9 to 1e9 (0.001: a simulated\n"
    "millisecond per wall second), so a person can watch and change\n"
    "the run; without it the API is read-only while the run goes"};

constexpr OptionSpec kRunApiOptions[] = {kApiOption, kApiTokenFileOption, kApiAllowRemoteOption,
                                         kApiHoldOption, kPaceOption};
constexpr OptionSpec kServeApiOptions[] = {kApiOption, kApiTokenFileOption, kApiAllowRemoteOption,
                                           kApiHoldOption, Unlisted(kPaceOption)};

constexpr OptionSpec kTopoOptions[] = {
    {"--pair", "", "A,B", SetPair,
     "the endpoints whose paths are counted, as host indices or names\n"
     "(e.g. 0,255 or h0,h255). Default: host 0 and the last host"},
    {"--dot", "", "FILE", SetDotFile,
     "write the graph for Graphviz, switches ranked by tier\n"
     "(render: dot -Tsvg FILE -o fabric.svg); - writes it to stdout"},
    {"--json", "", "FILE", SetJsonFile,
     "write the graph (nodes, links, link classes) and every figure above\n"
     "as JSON; - writes it to stdout"},
    kHelpOption,
};

constexpr OptionSpec kExportOptions[] = {
    {"--output", "-o", "FILE", SetExportFile, "where the CSV goes; - or none: stdout"},
    {"--seed", "", "N", SetSeed,
     "replaces run.seed (0 to 2^64-1): the seed the random patterns\n"
     "(permutation, incast, cdf_load, placement) are drawn from; replay\n"
     "with the same one"},
    kHelpOption,
};

constexpr OptionSpec kSweepOptions[] = {
    {"--set", "", "PATH=V1,V2,...", AddSet,
     "a field and its values. PATH names the field from the scenario's\n"
     "top: topology.fat_tree.link_rate_gbps, switch.queue[0].wred.kmin_bytes,\n"
     "traffic[1].incast.senders. Enums by name (NVIDIA), bools true/false, a\n"
     "message in text format ({dcqcn {}}); a value in quotes or braces keeps\n"
     "its commas. docs/sweep.md has the rules"},
    {"--jobs", "", "N", SetJobs, "points run at once (1 to 1024). Default: one per CPU it may use"},
    {"--out", "", "DIR", SetOutDir,
     "where the points and tables go. Default: out/<scenario name>-sweep"},
    {"--quiet", "", "", SetQuiet, "no progress lines on stderr"},
    {"--report", "", "", SetReport,
     "each point's run also writes its report.html (run --report), which\n"
     "sweep.html links to"},
    kHelpOption,
};

constexpr std::string_view kOptionsHeading = "Options:";
constexpr std::string_view kApiHeading = "HTTP API (docs/api.md):";
// Each command's descriptions start where its help has always aligned them; the HTTP API's line
// up the same under run and serve.
constexpr size_t kApiColumn = 24;

constexpr OptionGroup kRunGroups[] = {{kOptionsHeading, 14, kRunOptions},
                                      {kApiHeading, kApiColumn, kRunApiOptions}};
constexpr OptionGroup kServeGroups[] = {{kOptionsHeading, 19, kServeOptions},
                                        {kApiHeading, kApiColumn, kServeApiOptions}};
constexpr OptionGroup kTopoGroups[] = {{kOptionsHeading, 18, kTopoOptions}};
constexpr OptionGroup kExportGroups[] = {{kOptionsHeading, 21, kExportOptions}};
constexpr OptionGroup kSweepGroups[] = {{kOptionsHeading, 16, kSweepOptions}};

// "-o, --output FILE"
std::string Label(const OptionSpec& spec) {
  std::string label;
  if (!spec.short_name.empty()) label = std::string(spec.short_name) + ", ";
  label += spec.name;
  if (!spec.placeholder.empty()) label += " " + std::string(spec.placeholder);
  return label;
}

}  // namespace

std::span<const OptionGroup> OptionGroupsOf(Command command) {
  switch (command) {
    case Command::kRun:
      return kRunGroups;
    case Command::kServe:
      return kServeGroups;
    case Command::kTopo:
      return kTopoGroups;
    case Command::kExport:
      return kExportGroups;
    case Command::kSweep:
      return kSweepGroups;
    default:
      return {};
  }
}

std::string OptionGroupHelp(const OptionGroup& group) {
  constexpr size_t kIndent = 2;
  constexpr size_t kMinGap = 2;
  std::string text = std::string(group.heading) + "\n";
  for (const OptionSpec& spec : group.options) {
    if (spec.help.empty()) continue;
    const std::string label = std::string(kIndent, ' ') + Label(spec);
    // A name too long for the column keeps two spaces before its description.
    const size_t gap =
        label.size() + kMinGap > group.column ? kMinGap : group.column - label.size();
    text += label + std::string(gap, ' ');
    for (size_t begin = 0; begin <= spec.help.size();) {
      const size_t end = std::min(spec.help.find('\n', begin), spec.help.size());
      if (begin > 0) text += std::string(group.column, ' ');
      text += std::string(spec.help.substr(begin, end - begin)) + "\n";
      begin = end + 1;
    }
  }
  return text + "\n";
}

}  // namespace fe::control
