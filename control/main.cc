// fabric-emu: the command line. Exit codes: 0 success, 2 bad usage, a refused scenario or an
// output directory the run cannot use (nothing ran), 1 a valid scenario whose run failed (or
// made no progress, or whose results could not be written, standard output included), 128 + the
// signal's number for a run that SIGINT or SIGTERM stopped.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "control/cli_args.h"
#include "control/commands/events_csv.h"
#include "control/export_command.h"
#include "control/input_paths.h"
#include "control/realtime_interfaces.h"
#include "control/report/collectives_report.h"
#include "control/report/html/report_html.h"
#include "control/report/jobs_csv.h"
#include "control/report/kv_report.h"
#include "control/report/links_csv.h"
#include "control/report/output_dir.h"
#include "control/report/scenario_text.h"
#include "control/report_writer.h"
#include "control/scenario_loader.h"
#include "control/scenario_validator.h"
#include "control/serve.h"
#include "control/serve_eal.h"
#include "control/software_run.h"
#include "control/stop_signals.h"
#include "control/sweep/scenario_overrides.h"
#include "control/sweep/sweep_command.h"
#include "control/topo_command.h"
#include "dataplane/eal.h"
#include "dataplane/packet_pool.h"
#include "traffic/message_outcomes.h"

namespace fe::control {
namespace {

std::string ScenarioDir(const std::string& path) {
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  return dir.empty() ? "." : dir.string();
}

// What the output directory must not replace: the scenario and the files it reads. Not the
// events file of a replay, read before the directory is readied (it may be that run's
// events.csv, which the replay writes again).
std::vector<std::string> RunInputs(const CliArgs& args, const fabric_emu::Scenario& scenario) {
  std::vector<std::string> inputs = ScenarioInputFiles(scenario, ScenarioDir(args.scenario_path));
  inputs.push_back(args.scenario_path);
  return inputs;
}

// DPDK heap for a software run. Its packets live in host pages (dp::PoolMemory::kHostPages), and
// so does their free list: the heap holds only the pool's descriptor (some 150 KB at k = 16).
// Kept small, as the EAL writes a 48-byte descriptor for each 4 KB page of it.
constexpr int kSoftwareEalMemoryMb = 4;

int Run(const CliArgs& args, const fabric_emu::Scenario& loaded) {
  // A replay runs the events file's commands instead of the schedule (which it holds already).
  StatusOr<std::vector<AppliedCommand>> replay = std::vector<AppliedCommand>{};
  fabric_emu::Scenario scenario = loaded;
  if (!args.events_file.empty()) {
    // Before the output directory is readied, which removes the events.csv it may hold.
    replay = LoadEvents(args.events_file, scenario, ScenarioDir(args.scenario_path));
    if (!replay.ok()) {
      std::cerr << "fabric-emu: " << replay.status().message() << "\n";
      return kExitBadInput;
    }
    scenario.clear_schedule();
  }
  const uint64_t seed = scenario.run().seed();
  const std::string out_dir = OutputDir(args, scenario);
  // Before anything runs, so that a directory the run cannot use costs the user no run.
  if (Status s = PrepareOutputDir(out_dir, scenario.has_capture() ? scenario.capture().file() : "",
                                  RunInputs(args, scenario));
      !s.ok()) {
    std::cerr << "fabric-emu: " << s.message() << "\n";
    return kExitBadInput;
  }
  // Before the EAL starts its threads, which inherit the blocked signals: a SIGINT sent to the
  // process then waits for the run's next look between slices, whichever thread it reached.
  std::optional<StopSignals> signals;
  signals.emplace();
  dp::EalOptions eal;
  eal.memory_mb = kSoftwareEalMemoryMb;
  eal.quick_tsc_estimate = true;
  eal.keep_thread_affinity = true;
  if (Status s = dp::InitEal(eal); !s.ok()) {
    std::cerr << "fabric-emu: " << s.message() << "\n";
    return kExitRuntimeFailure;
  }
  StatusOr<std::unique_ptr<api::ApiSession>> api = std::unique_ptr<api::ApiSession>();
  if (args.api.listen) api = api::ApiSession::Start(args.api, "software", out_dir, std::cerr);
  if (!api.ok()) {
    std::cerr << "fabric-emu: " << api.status().message() << "\n";
    return kExitBadInput;
  }
  SoftwareRunOptions options;
  options.api = api->get();
  options.seed = seed;
  options.out_dir = out_dir;
  options.scenario_dir = ScenarioDir(args.scenario_path);
  if (scenario.run().progress()) options.progress = &std::cerr;
  if (signals->ok()) options.signals = &*signals;
  options.replay = std::move(replay).value();
  StatusOr<SoftwareRunResult> run = RunSoftware(scenario, options);
  // The outputs are written with the signals' default actions back: a second Ctrl-C (or one that
  // came meanwhile) ends the process at once.
  signals.reset();
  if (!run.ok()) {
    std::cerr << "fabric-emu: run failed: " << run.status().message() << "\n";
    return kExitRuntimeFailure;
  }
  // The packets' memory is the run's largest: with every packet gone it goes back before the
  // reports take theirs, rather than adding to the process's peak.
  dp::ReleaseIdlePacketMemory(run->emulation->fabric->pool());
  const FlowMetrics metrics = CollectFlowMetrics(
      *run->emulation, static_cast<uint32_t>(scenario.nic().mtu_payload_bytes()));
  const FlowSummary flows = metrics.Summarize();
  const Workload& workload = run->emulation->workload;
  const std::vector<MessageOutcome> outcomes = OutcomesOf(run->emulation->fabric->messages());
  for (const Status& s :
       {WriteFileAtomically(out_dir + "/summary.json",
                            SummaryDocument(scenario, seed, *run, flows).Parts()),
        WriteFileAtomically(out_dir + "/flows.csv", FlowsCsv(metrics, workload, outcomes))}) {
    if (!s.ok()) {
      std::cerr << "fabric-emu: " << s.message() << "\n";
      return kExitRuntimeFailure;
    }
  }
  std::string outputs = out_dir + "/summary.json, " + out_dir + "/flows.csv";
  std::vector<std::pair<std::string, std::string>> series;  // optional files: name, contents
  series.emplace_back("links.csv", LinksCsv(*run->emulation, run->simulated_time));
  series.emplace_back("scenario.textproto", ScenarioText(scenario));
  if (run->rates != nullptr) series.emplace_back("rates.csv", RatesCsv(run->rates->samples()));
  if (run->queues != nullptr) {
    series.emplace_back("queues.csv", QueuesCsv(run->queues->samples(), run->emulation->graph));
  }
  if (const CommandExecutor& c = *run->emulation->commands; c.any_scheduled()) {
    series.emplace_back("events.csv", EventsCsv(c.applied()));
  }
  if (const Emulation& e = *run->emulation; !e.workload.requests.empty()) {
    series.emplace_back("kv.csv", KvCsv(e.workload, OutcomesOf(e.fabric->messages())));
  }
  for (const auto& [name, contents] : series) {
    if (Status s = WriteFileAtomically(out_dir + "/" + name, contents); !s.ok()) {
      std::cerr << "fabric-emu: " << s.message() << "\n";
      return kExitRuntimeFailure;
    }
    outputs += ", " + out_dir + "/" + name;
  }
  StatusOr<std::string> collectives =
      WriteCollectiveReports(workload, outcomes, out_dir, std::cout);
  if (!collectives.ok()) {
    std::cerr << "fabric-emu: " << collectives.status().message() << "\n";
    return kExitRuntimeFailure;
  }
  if (!collectives->empty()) outputs += ", " + *collectives;
  StatusOr<std::string> jobs = WriteJobsCsv(workload, outcomes, out_dir);
  if (!jobs.ok()) {
    std::cerr << "fabric-emu: " << jobs.status().message() << "\n";
    return kExitRuntimeFailure;
  }
  if (!jobs->empty()) outputs += ", " + *jobs;
  if (scenario.has_capture()) outputs += ", " + out_dir + "/" + scenario.capture().file();
  std::cout << HumanSummary(scenario, seed, *run, flows) << "  outputs   " << outputs << "\n";
  // A stopped run gets its page too: it shows the run so far.
  const bool report_failed =
      args.report && html::RunReportCommand(out_dir, std::cout, std::cerr) != kExitOk;
  if (*api != nullptr) {
    (*api)->Finish(run->events, run->wall_time_s, nullptr, run->simulated_time);
    (*api)->HoldIfAsked(std::cerr);
  }
  if (!run->no_progress.empty()) {
    std::cerr << "fabric-emu: run failed: no progress: " << run->no_progress << "\n";
    return kExitRuntimeFailure;
  }
  if (run->stop_signal != 0) {
    std::cerr << "fabric-emu: stopped by " << StopSignals::Name(run->stop_signal)
              << " at simulated " << run->simulated_time.ns()
              << " ns; the outputs hold the run so far\n";
    return 128 + run->stop_signal;
  }
  return report_failed ? kExitRuntimeFailure : kExitOk;
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
    case Command::kValidate:
    case Command::kServe:
    case Command::kTopo:
    case Command::kExport:
    case Command::kSweep:
      break;
  }
  StatusOr<fabric_emu::Scenario> loaded = LoadScenarioFile(args.scenario_path);
  if (!loaded.ok()) {
    std::cerr << loaded.status().message() << "\n";
    return kExitBadInput;
  }
  fabric_emu::Scenario scenario = std::move(loaded).value();
  if (args.command == Command::kSweep) return RunSweep(args, scenario);
  if (Status s = ApplySetOptions(args.set, args.scenario_path, &scenario); !s.ok()) {
    std::cerr << "fabric-emu: " << s.message() << "\n";
    return kExitBadInput;
  }
  ApplyCliOverrides(args, &scenario);
  // Interfaces exist or not on this machine: serve needs them here, validate may run elsewhere.
  const std::vector<std::string> missing =
      args.command == Command::kValidate || args.command == Command::kServe
          ? MissingInterfaces(args.scenario_path, scenario)
          : std::vector<std::string>{};
  const Status fits = CheckCoresFitMachine(scenario, args.scenario_path);
  if (args.command == Command::kValidate || args.command == Command::kServe) {
    for (const std::string& d : DownInterfaces(scenario)) std::cerr << "warning: " << d << "\n";
  }
  if (args.command == Command::kValidate) {
    for (const std::string& m : missing) std::cerr << "warning: " << m << "\n";
    if (!fits.ok()) std::cerr << "warning: " << fits.message() << "\n";
    std::cout << args.scenario_path << ": valid\n";
    return kExitOk;
  }
  if (args.command == Command::kTopo) {
    TopoOptions options;
    options.scenario_dir = ScenarioDir(args.scenario_path);
    options.pair = args.pair;
    options.dot_file = args.dot_file;
    options.json_file = args.json_file;
    return RunTopo(scenario, options, std::cout, std::cerr);
  }
  if (args.command == Command::kExport) {
    const ExportOptions options{ScenarioDir(args.scenario_path), args.export_file,
                                scenario.run().seed()};
    return RunExport(scenario, options, std::cout, std::cerr);
  }
  if (args.command == Command::kServe) {
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
    options.scenario_dir = ScenarioDir(args.scenario_path);
    options.inputs = RunInputs(args, scenario);
    options.log = &std::cerr;
    options.api = args.api;
    return RunServe(scenario, options);
  }
  if (!fits.ok()) {
    std::cerr << "fabric-emu: " << fits.message() << "\n";
    return kExitBadInput;
  }
  return Run(args, scenario);
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

int main(int argc, char** argv) { return fe::control::CheckStdout(fe::control::Main(argc, argv)); }
