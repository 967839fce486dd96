// `fabric-emu run`: the software run of a scenario, from its file to its outputs (exit codes as
// control/cli/main.cc lists them).
#include "control/run/run_command.h"

#include <functional>
#include <future>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "control/emulation/events_csv.h"
#include "control/process/input_paths.h"
#include "control/process/output_dir.h"
#include "control/process/output_set.h"
#include "control/process/stop_signals.h"
#include "control/report/collectives_report.h"
#include "control/report/html/report_html.h"
#include "control/report/jobs_csv.h"
#include "control/report/kv_report.h"
#include "control/report/links_csv.h"
#include "control/report/scenario_text.h"
#include "control/run/report_writer.h"
#include "control/run/software_run.h"
#include "control/scenario/scenario_loader.h"
#include "control/scenario/scenario_overrides.h"
#include "control/scenario/validate/scenario_validator.h"
#include "dataplane/eal.h"
#include "dataplane/packet_pool.h"
#include "traffic/message_outcomes.h"

namespace fe::control {

namespace {

// DPDK heap for a software run. Its packets live in host pages (dp::PoolMemory::kHostPages), and
// so does their free list: the heap holds only the pool's descriptor (some 150 KB at k = 16).
// Kept small, as the EAL writes a 48-byte descriptor for each 4 KB page of it.
constexpr int kSoftwareEalMemoryMb = 4;

// A scenario ready to run: loaded, checked, changed by the command line, its output directory
// readied; or, when it cannot run, what to print and the exit code.
struct ReadyRun {
  fabric_emu::Scenario scenario;
  std::vector<AppliedCommand> replay;  // an events file's commands, replacing the schedule
  std::string out_dir;
  std::string error;
  int exit_code = kExitOk;
};

ReadyRun Refused(std::string error) {
  ReadyRun r;
  r.error = std::move(error);
  r.exit_code = kExitBadInput;
  return r;
}

ReadyRun MakeReady(const CliArgs& args) {
  StatusOr<fabric_emu::Scenario> loaded = LoadScenarioFile(args.scenario_path);
  if (!loaded.ok()) return Refused(loaded.status().message());
  ReadyRun r;
  r.scenario = std::move(loaded).value();
  if (Status s = ApplySetOptions(args.set, args.scenario_path, &r.scenario); !s.ok()) {
    return Refused("fabric-emu: " + s.message());
  }
  ApplyCliOverrides(args, &r.scenario);
  if (Status fits = CheckCoresFitMachine(r.scenario, args.scenario_path); !fits.ok()) {
    return Refused("fabric-emu: " + fits.message());
  }
  if (!args.events_file.empty()) {
    // Before the output directory is readied, which removes the events.csv it may hold.
    StatusOr<std::vector<AppliedCommand>> replay =
        LoadEvents(args.events_file, r.scenario, ScenarioDirOf(args.scenario_path));
    if (!replay.ok()) return Refused("fabric-emu: " + replay.status().message());
    r.replay = std::move(replay).value();
    r.scenario.clear_schedule();
  }
  r.out_dir = OutputDir(args, r.scenario);
  // Before anything runs, so that a directory the run cannot use costs the user no run.
  if (Status s =
          PrepareOutputDir(r.out_dir, r.scenario.has_capture() ? r.scenario.capture().file() : "",
                           RunInputFiles(args.scenario_path, r.scenario));
      !s.ok()) {
    return Refused("fabric-emu: " + s.message());
  }
  return r;
}

using NamedText = std::pair<std::string, std::string>;  // a file's name and contents

// The files a run writes besides summary.json and flows.csv, those it has.
std::vector<NamedText> SeriesTexts(const SoftwareRunResult& run,
                                   const fabric_emu::Scenario& scenario) {
  std::vector<NamedText> series;
  series.emplace_back("links.csv", LinksCsv(*run.emulation, run.simulated_time));
  series.emplace_back("scenario.textproto", ScenarioText(scenario));
  if (run.rates != nullptr) series.emplace_back("rates.csv", RatesCsv(run.rates->samples()));
  if (run.queues != nullptr) {
    series.emplace_back("queues.csv", QueuesCsv(run.queues->samples(), run.emulation->graph));
  }
  if (const CommandExecutor& c = *run.emulation->commands; c.any_scheduled()) {
    series.emplace_back("events.csv", EventsCsv(c.applied()));
  }
  if (const Emulation& e = *run.emulation; !e.workload.requests.empty()) {
    series.emplace_back("kv.csv", KvCsv(e.workload, OutcomesOf(e.fabric->messages())));
  }
  return series;
}

dp::EalOptions SoftwareEal() {
  dp::EalOptions eal;
  eal.memory_mb = kSoftwareEalMemoryMb;
  eal.quick_tsc_estimate = true;
  eal.keep_thread_affinity = true;
  return eal;
}

// What WriteOutputs wrote, to list once they are in place.
struct Written {
  std::vector<std::string> files;
  bool report_failed = false;
};

// Stages every output of a finished (or stopped) run; returns kExitOk, or the exit code of the
// first write that failed, its message printed.
int WriteOutputs(const CliArgs& args, const fabric_emu::Scenario& scenario, uint64_t seed,
                 const SoftwareRunResult& run, const FlowMetrics& metrics, const FlowSummary& flows,
                 OutputSet* outputs, Written* written) {
  const Workload& workload = run.emulation->workload;
  const std::vector<MessageOutcome> outcomes = OutcomesOf(run.emulation->fabric->messages());
  // The other files' texts are made on a thread of their own meanwhile (all read the finished
  // run only): at k = 16 summary.json alone takes tens of milliseconds.
  std::future<std::vector<NamedText>> series =
      std::async(std::launch::async, SeriesTexts, std::cref(run), std::cref(scenario));
  for (const Status& s :
       {outputs->Write("summary.json", SummaryDocument(scenario, seed, run, flows).Parts()),
        outputs->Write("flows.csv", FlowsCsv(metrics, workload, outcomes))}) {
    if (!s.ok()) {
      std::cerr << "fabric-emu: " << s.message() << "\n";
      return kExitRuntimeFailure;
    }
  }
  written->files = {"summary.json", "flows.csv"};
  for (const auto& [name, contents] : series.get()) {
    if (Status s = outputs->Write(name, contents); !s.ok()) {
      std::cerr << "fabric-emu: " << s.message() << "\n";
      return kExitRuntimeFailure;
    }
    written->files.push_back(name);
  }
  for (StatusOr<std::string> file : {WriteCollectiveReports(workload, outcomes, outputs, std::cout),
                                     WriteJobsCsv(workload, outcomes, outputs)}) {
    if (!file.ok()) {
      std::cerr << "fabric-emu: " << file.status().message() << "\n";
      return kExitRuntimeFailure;
    }
    if (!file->empty()) written->files.push_back(*file);
  }
  if (scenario.has_capture()) written->files.push_back(scenario.capture().file());
  // A stopped run gets its page too: it shows the run so far. Drawn from the staged files, so
  // that it is moved into place with them.
  if (args.report) {
    StatusOr<std::string> page = html::BuildReport(outputs->staging_dir());
    if (Status s = page.ok() ? outputs->Write("report.html", *page) : page.status(); !s.ok()) {
      std::cerr << "fabric-emu: report: " << s.message() << "\n";
      written->report_failed = true;
    }
  }
  return kExitOk;
}

// The exit code of a run whose outputs are in place, and why it is not kExitOk.
int ExitCodeOf(const SoftwareRunResult& run, bool report_failed) {
  if (!run.no_progress.empty()) {
    std::cerr << "fabric-emu: run failed: no progress: " << run.no_progress << "\n";
    return kExitRuntimeFailure;
  }
  if (!run.failure.empty()) {
    std::cerr << "fabric-emu: run failed: " << run.failure << "; the outputs hold the run so far\n";
    return kExitRuntimeFailure;
  }
  if (run.stop_signal != 0) {
    std::cerr << "fabric-emu: stopped by " << StopSignals::Name(run.stop_signal) << " at simulated "
              << run.simulated_time.ns() << " ns; the outputs hold the run so far\n";
    return 128 + run.stop_signal;
  }
  return report_failed ? kExitRuntimeFailure : kExitOk;
}

int Run(const CliArgs& args, ReadyRun ready, std::optional<StopSignals>* signals) {
  const fabric_emu::Scenario& scenario = ready.scenario;
  const std::string& out_dir = ready.out_dir;
  const uint64_t seed = scenario.run().seed();
  StatusOr<std::unique_ptr<api::ApiSession>> api = std::unique_ptr<api::ApiSession>();
  if (args.api.listen) api = api::ApiSession::Start(args.api, "software", out_dir, std::cerr);
  if (!api.ok()) {
    std::cerr << "fabric-emu: " << api.status().message() << "\n";
    return kExitBadInput;
  }
  // Every output, the capture among them, goes into a staging directory and is moved into
  // out_dir once all are written: a run that fails on the way leaves none of them.
  StatusOr<OutputSet> outputs = OutputSet::Open(out_dir);
  if (!outputs.ok()) {
    std::cerr << "fabric-emu: " << outputs.status().message() << "\n";
    return kExitRuntimeFailure;
  }
  SoftwareRunOptions options;
  options.api = api->get();
  options.seed = seed;
  options.out_dir = outputs->staging_dir();
  options.scenario_dir = ScenarioDirOf(args.scenario_path);
  if (scenario.run().progress()) options.progress = &std::cerr;
  if ((*signals)->ok()) options.signals = &**signals;
  options.replay = std::move(ready.replay);
  StatusOr<SoftwareRunResult> run = RunSoftware(scenario, options);
  // The outputs are written with the signals' default actions back: a second Ctrl-C (or one that
  // came meanwhile) ends the process at once.
  signals->reset();
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
  Written written;
  if (int code = WriteOutputs(args, scenario, seed, *run, metrics, flows, &*outputs, &written);
      code != kExitOk) {
    return code;
  }
  if (Status s = outputs->Commit(); !s.ok()) {
    std::cerr << "fabric-emu: " << s.message() << "\n";
    return kExitRuntimeFailure;
  }
  std::string listed;
  for (const std::string& name : written.files) {
    listed += (listed.empty() ? "" : ", ") + out_dir + "/" + name;
  }
  std::cout << HumanSummary(scenario, seed, *run, flows) << "  outputs   " << listed << "\n";
  if (args.report && !written.report_failed) {
    std::cout << "report    " << out_dir << "/report.html\n";
  }
  if (*api != nullptr) {
    (*api)->Finish(run->events, run->wall_time_s, nullptr, run->simulated_time, run->stopped_early);
    (*api)->HoldIfAsked(std::cerr, run->stop_signal != 0);
  }
  return ExitCodeOf(*run, written.report_failed);
}

}  // namespace

int RunCommand(const CliArgs& args) {
  // Before any thread starts, so that every thread inherits the blocked signals: a SIGINT sent
  // to the process then waits for the run's next look between slices, whichever thread it
  // reached.
  std::optional<StopSignals> signals;
  signals.emplace();
  // The EAL's start (2-3 ms of system calls, page faults and waits for the thread it starts)
  // needs nothing of the scenario, and reading and checking the scenario and readying the output
  // directory (1.5-2 ms) need nothing of the EAL: the scenario is made ready on a thread of its
  // own meanwhile. A refused scenario is reported first, as when it was read before the EAL.
  std::future<ReadyRun> making = std::async(std::launch::async, MakeReady, std::cref(args));
  const Status eal = dp::InitEal(SoftwareEal());
  ReadyRun ready = making.get();
  if (ready.exit_code != kExitOk) {
    std::cerr << ready.error << "\n";
    return ready.exit_code;
  }
  if (!eal.ok()) {
    std::cerr << "fabric-emu: " << eal.message() << "\n";
    return kExitRuntimeFailure;
  }
  return Run(args, std::move(ready), &signals);
}

}  // namespace fe::control
