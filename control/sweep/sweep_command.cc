#include "control/sweep/sweep_command.h"

#include <google/protobuf/text_format.h>
#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <span>
#include <sstream>
#include <string_view>

#include "control/process/output_dir.h"
#include "control/process/stop_signals.h"
#include "control/scenario/validate/scenario_validator.h"
#include "control/sweep/child_processes.h"
#include "control/sweep/sweep_csv.h"
#include "control/sweep/sweep_html.h"
#include "control/sweep/sweep_table.h"
#include "core/printable.h"

namespace fe::control {
namespace {

namespace fs = std::filesystem;

// Written into a point's directory once its run exits 0: a point is finished only with it, so
// that a run a signal stopped (which leaves a summary.json of the run so far) is run again.
constexpr char kDoneMarker[] = "sweep-point.done";
constexpr char kDoneText[] = "exit 0\n";
// Not scenario.textproto: a run writes that itself, the scenario as it ran (for its report).
constexpr char kPointScenario[] = "point.textproto";

// The point's scenario file: what was swept, how to run it alone, then the scenario itself. No
// point number or base path in it, so that the same point of a grown grid reads the same.
std::string PointScenarioText(std::span<const SweepAxis> axes, const SweepPoint& point) {
  std::string text = "# A point of a fabric-emu sweep: the base scenario with\n";
  for (size_t a = 0; a < axes.size(); ++a) {
    text += "#   " + axes[a].path + "=" + Printable(point.values[a]) + "\n";
  }
  text +=
      "# and its input paths made absolute. To run it alone, from this folder:\n"
      "#   fabric-emu run point.textproto --out .\n";
  std::string body;
  google::protobuf::TextFormat::PrintToString(point.scenario, &body);
  return text + body;
}

std::optional<std::string> ReadFile(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Finished before with this very scenario: its run exited 0 and left its summary (and its
// report, when the sweep asks for reports).
bool FinishedBefore(const std::string& dir, const std::string& scenario_text, bool reports) {
  return ReadFile(dir + "/" + kDoneMarker) == kDoneText &&
         ReadFile(dir + "/" + kPointScenario) == scenario_text &&
         fs::is_regular_file(dir + "/summary.json") &&
         (!reports || fs::is_regular_file(dir + "/report.html"));
}

// Why a run failed, from its log: the last error line `run` wrote ("fabric-emu: run failed:
// ..."), without its prefix, else the log's last line.
std::string FailureReason(const std::string& log_path) {
  std::istringstream log(ReadFile(log_path).value_or(""));
  std::string reason;
  std::string last;
  constexpr std::string_view kPrefix = "fabric-emu: ";
  for (std::string line; std::getline(log, line);) {
    if (line.starts_with(kPrefix)) reason = line.substr(kPrefix.size());
    if (line.find_first_not_of(' ') != std::string::npos) last = line;
  }
  return Printable(reason.empty() ? last : reason);
}

PointStatus StatusOf(const ChildExit& e) {
  if (!e.started) return e.error.empty() ? PointStatus::kNotRun : PointStatus::kFailed;
  const bool stopped = e.signal == SIGINT || e.signal == SIGTERM || e.exit_code == 128 + SIGINT ||
                       e.exit_code == 128 + SIGTERM;
  if (stopped) return PointStatus::kInterrupted;
  return e.exit_code == kExitOk ? PointStatus::kOk : PointStatus::kFailed;
}

std::string HowItEnded(const ChildExit& e) {
  if (!e.error.empty()) return e.error;
  if (e.signal != 0) return "killed by signal " + std::to_string(e.signal);
  return "exit " + std::to_string(e.exit_code);
}

// The CPUs this process may run on (taskset, cpusets), not all the machine has.
size_t DefaultJobs() {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  if (::sched_getaffinity(0, sizeof(cpus), &cpus) != 0) return 1;
  return std::max(1, CPU_COUNT(&cpus));
}

// What a sweep does with its grid: which points run, by which command, and which resume.
struct SweepPlan {
  std::vector<PointRecord> records;  // one per point, in grid order
  std::vector<ChildCommand> commands;
  std::vector<size_t> command_point;  // commands[i] runs point command_point[i]
  size_t resumed = 0;
};

// Each point that did not finish before gets its directory readied (outputs of an earlier run
// removed, as `run` does) and its scenario written. A directory a point cannot use refuses the
// sweep before anything runs.
StatusOr<SweepPlan> PlanPoints(const SweepGrid& grid, const std::string& out_dir,
                               const std::string& program, bool reports) {
  SweepPlan plan;
  plan.records.resize(grid.points.size());
  for (size_t p = 0; p < grid.points.size(); ++p) {
    const SweepPoint& point = grid.points[p];
    plan.records[p].point = &point;
    const std::string dir = out_dir + "/" + point.name;
    const std::string text = PointScenarioText(grid.axes, point);
    if (FinishedBefore(dir, text, reports)) {
      plan.records[p].status = PointStatus::kOk;
      ++plan.resumed;
      continue;
    }
    const std::string capture = point.scenario.has_capture() ? point.scenario.capture().file() : "";
    Status ready = PrepareOutputDir(dir, capture);
    if (ready.ok()) {
      std::error_code ec;
      fs::remove(dir + "/" + kDoneMarker, ec);
      ready = WriteFileAtomically(dir + "/" + kPointScenario, text);
    }
    if (!ready.ok()) return Status::Error(point.name + ": " + ready.message());
    ChildCommand command{{program, "run", dir + "/" + kPointScenario, "--out", dir, "--quiet"},
                         dir + "/run.log"};
    if (reports) command.argv.emplace_back("--report");
    plan.commands.push_back(std::move(command));
    plan.command_point.push_back(p);
  }
  return plan;
}

// The headline of every finished point; a point whose summary cannot be read has failed.
// Returns how many did so.
size_t ReadHeadlines(const std::string& out_dir, std::span<PointRecord> records) {
  size_t unreadable = 0;
  for (PointRecord& r : records) {
    if (r.status != PointStatus::kOk && r.status != PointStatus::kFailed) continue;
    const std::string dir = out_dir + "/" + r.point->name;
    r.has_report = fs::is_regular_file(dir + "/report.html");
    const std::string summary = dir + "/summary.json";
    StatusOr<std::vector<HeadlineValue>> headline = ReadHeadline(ReadFile(summary).value_or(""));
    if (headline.ok()) {
      r.headline = std::move(headline).value();
    } else if (r.status == PointStatus::kOk) {
      std::cerr << "fabric-emu: " << summary << ": " << headline.status().message() << "\n";
      r.status = PointStatus::kFailed;
      ++unreadable;
    }
  }
  return unreadable;
}

// The grid of the sweep's --set options, each of its points checked; nullopt, with why printed,
// when the sweep is refused.
std::optional<SweepGrid> CheckedGrid(const CliArgs& args, const fabric_emu::Scenario& base) {
  std::vector<SweepAxis> axes;
  for (const std::string& arg : args.set) {
    StatusOr<SweepAxis> axis = ParseSweepAxis(arg);
    if (!axis.ok()) {
      std::cerr << "fabric-emu: sweep: " << axis.status().message() << "\n";
      return std::nullopt;
    }
    axes.push_back(std::move(axis).value());
  }
  StatusOr<SweepGrid> built = BuildSweepGrid(base, std::move(axes), args.scenario_path);
  if (!built.ok()) {
    std::cerr << "fabric-emu: sweep refused, nothing ran:\n" << built.status().message() << "\n";
    return std::nullopt;
  }
  for (const SweepPoint& point : built->points) {
    if (Status s = CheckCoresFitMachine(point.scenario, args.scenario_path); !s.ok()) {
      std::cerr << "fabric-emu: sweep refused, nothing ran: " << s.message() << "\n";
      return std::nullopt;
    }
  }
  return std::move(built).value();
}

void AnnouncePlan(const std::string& out_dir, size_t total, const SweepPlan& plan, size_t jobs) {
  std::cerr << "sweep: " << total << " points in " << out_dir << ": " << plan.resumed
            << " resumed (finished before, same scenario), " << plan.commands.size() << " to run";
  if (!plan.commands.empty()) {
    std::cerr << ", " << std::min(jobs, plan.commands.size()) << " at a time";
  }
  std::cerr << "\n";
}

// How the sweep's points ended, counted as they end and once all have.
struct Tally {
  size_t finished = 0;
  size_t failed = 0;
  size_t interrupted = 0;
  size_t not_run = 0;
  int stop_signal = 0;
};

// Runs the plan's commands, marking each point that exits 0 as done and reporting each as it
// ends.
std::vector<ChildExit> RunPoints(const CliArgs& args, const SweepGrid& grid, const SweepPlan& plan,
                                 const std::string& out_dir, size_t jobs, Tally* tally) {
  const size_t total = grid.points.size();
  return RunChildren(
      plan.commands, jobs,
      [&](size_t i, const ChildExit& e, size_t running) {
        const SweepPoint& point = grid.points[plan.command_point[i]];
        const std::string dir = out_dir + "/" + point.name;
        const PointStatus status = StatusOf(e);
        if (status == PointStatus::kOk) {
          if (Status s = WriteFileAtomically(dir + "/" + kDoneMarker, kDoneText); !s.ok()) {
            std::cerr << "fabric-emu: " << point.name << ": " << s.message() << "\n";
          }
        }
        if (status == PointStatus::kOk || status == PointStatus::kFailed) ++tally->finished;
        if (status == PointStatus::kFailed) {
          ++tally->failed;
          std::cerr << "fabric-emu: " << point.name << " failed (" << HowItEnded(e)
                    << "): " << FailureReason(dir + "/run.log") << " (" << dir << "/run.log)\n";
        }
        if (!args.quiet) {
          char wall[32];
          std::snprintf(wall, sizeof(wall), "%.1f", e.wall_s);
          std::cerr << "sweep: " << tally->finished << "/" << total << " done, " << running
                    << " running, " << tally->failed << " failed: " << point.name << " "
                    << PointStatusName(status) << " in " << wall << " s\n";
        }
      },
      &tally->stop_signal);
}

void RecordExits(const std::vector<ChildExit>& exits, SweepPlan* plan, Tally* tally) {
  for (size_t i = 0; i < plan->commands.size(); ++i) {
    PointRecord& r = plan->records[plan->command_point[i]];
    r.status = StatusOf(exits[i]);
    tally->interrupted += r.status == PointStatus::kInterrupted;
    tally->not_run += r.status == PointStatus::kNotRun;
  }
}

// Writes sweep.csv and sweep.html, says how the sweep ended and returns its exit code.
int WriteResults(const fabric_emu::Scenario& base, const SweepGrid& grid, const SweepPlan& plan,
                 const std::string& out_dir, const Tally& tally) {
  const size_t total = grid.points.size();
  const std::string csv_path = out_dir + "/sweep.csv";
  const std::string html_path = out_dir + "/sweep.html";
  for (const auto& [path, contents] :
       {std::pair{csv_path, SweepCsv(grid.axes, plan.records)},
        std::pair{html_path, SweepHtml(base.name(), grid.axes, plan.records)}}) {
    if (Status s = WriteFileAtomically(path, contents); !s.ok()) {
      std::cerr << "fabric-emu: " << s.message() << "\n";
      return kExitRuntimeFailure;
    }
  }
  if (tally.stop_signal != 0) {
    std::cerr << "fabric-emu: sweep stopped by " << StopSignals::Name(tally.stop_signal) << ": "
              << tally.finished << " of " << total << " points finished, " << tally.interrupted
              << " interrupted, " << tally.not_run << " not run; " << csv_path
              << " holds the finished ones, and the same command resumes\n";
    return 128 + tally.stop_signal;
  }
  const size_t failed = tally.failed + tally.interrupted;
  std::cout << SweepTable(grid.axes, plan.records) << "sweep: " << total
            << " points: " << plan.commands.size() << " run, " << plan.resumed << " resumed, "
            << failed << " failed\n  outputs   " << csv_path << ", " << html_path << "\n";
  return failed == 0 ? kExitOk : kExitRuntimeFailure;
}

}  // namespace

std::string SweepDir(const CliArgs& args, const fabric_emu::Scenario& scenario) {
  return args.out_dir.empty() ? "out/" + scenario.name() + "-sweep" : args.out_dir;
}

int RunSweep(const CliArgs& args, const fabric_emu::Scenario& base) {
  const std::optional<SweepGrid> built = CheckedGrid(args, base);
  if (!built) return kExitBadInput;
  const SweepGrid& grid = *built;
  const std::string out_dir = SweepDir(args, base);
  std::error_code ec;
  const fs::path program = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    std::cerr << "fabric-emu: sweep: cannot find its own program: " << ec.message() << "\n";
    return kExitRuntimeFailure;
  }
  StatusOr<SweepPlan> planned = PlanPoints(grid, out_dir, program.string(), args.report);
  if (!planned.ok()) {
    std::cerr << "fabric-emu: sweep refused, nothing ran: " << planned.status().message() << "\n";
    return kExitBadInput;
  }
  SweepPlan& plan = *planned;
  const size_t jobs = args.jobs ? static_cast<size_t>(*args.jobs) : DefaultJobs();
  if (!args.quiet) AnnouncePlan(out_dir, grid.points.size(), plan, jobs);
  Tally tally{.finished = plan.resumed};
  const std::vector<ChildExit> exits = RunPoints(args, grid, plan, out_dir, jobs, &tally);
  RecordExits(exits, &plan, &tally);
  tally.failed += ReadHeadlines(out_dir, plan.records);
  return WriteResults(base, grid, plan, out_dir, tally);
}

}  // namespace fe::control
