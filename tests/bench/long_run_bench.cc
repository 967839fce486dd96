// Whether a run keeps its speed: `fabric-emu run`'s loop (control::RunSoftware, with its checks
// between slices) over about 960,000 small messages of background load on a k = 4 fat-tree, 40 ms
// of simulated time. The events per wall second of the run's first tenth of simulated time and
// of its last tenth are reported, and their ratio: the load is steady (as many events per
// simulated microsecond at the end as at the start), so the ratio is 1 but for noise unless some
// cost grows with the messages finished so far, as a walk of the message table between slices
// did (the last tenth ran at half the speed of the first in a ten-minute soak).
#include <benchmark/benchmark.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "control/run/software_run.h"
#include "control/scenario/scenario_loader.h"

namespace fe {
namespace {

// Flow sizes uniform in [1,000, 4,000] bytes: one packet each at the default MTU, so that the run
// finishes many messages per wall second.
constexpr char kSmallFlowsCdf[] = "1000 0\n4000 100\n";

constexpr char kScenario[] = R"pb(
  name: "long_run"
  topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }
  # Each completed message leaves its lapsed retransmission event queued until its deadline: at
  # the default timeout (67 ms) the queue would grow for the whole 40 ms run, at 200 us it is
  # steady after the first 0.5% of it.
  nic { transport { retransmit_timeout_ns: 200000 } }
  traffic { cdf_load { cdf_file: "small_flows.cdf" load_fraction: 0.3 duration_ns: 4e7 } }
  run { progress: false }
)pb";

struct Mark {
  Time now;
  uint64_t events = 0;
  double wall_s = 0;
};

// Events per wall second between the marks where simulated time first reaches `from` and `to`.
double EventRate(const std::vector<Mark>& marks, Time from, Time to) {
  Mark a, b;
  for (const Mark& m : marks) {
    if (m.now <= from) a = m;
    if (m.now <= to) b = m;
  }
  return b.wall_s > a.wall_s ? static_cast<double>(b.events - a.events) / (b.wall_s - a.wall_s) : 0;
}

void BM_LongRunKeepsItsSpeed(benchmark::State& state) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "fe_long_run_bench";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "small_flows.cdf") << kSmallFlowsCdf;
  auto scenario = control::LoadScenarioText(kScenario, (dir / "long_run.textproto").string());
  if (!scenario.ok()) {
    state.SkipWithError(scenario.status().message().c_str());
    return;
  }
  double first = 0, last = 0, messages = 0, events = 0;
  for (auto _ : state) {
    std::vector<Mark> marks;
    control::SoftwareRunOptions options;
    options.scenario_dir = dir.string();
    using Clock = std::chrono::steady_clock;
    Clock::time_point start;
    options.after_slice = [&](const control::Emulation& e, uint64_t run) {
      if (marks.empty()) start = Clock::now();  // the first slice starts the clock
      marks.push_back(
          Mark{e.sched.Now(), run, std::chrono::duration<double>(Clock::now() - start).count()});
    };
    StatusOr<control::SoftwareRunResult> r = control::RunSoftware(*scenario, options);
    if (!r.ok() || marks.size() < 20) {
      state.SkipWithError(r.ok() ? "too few slices to split in tenths"
                                 : r.status().message().c_str());
      return;
    }
    const Time end = marks.back().now;
    const Time tenth = Time::FromPs(end.ps() / 10);
    // From the end of the first slice, so that building the run's state is not timed.
    first = EventRate(marks, marks.front().now, tenth);
    last = EventRate(marks, end - tenth, end);
    messages = static_cast<double>(r->emulation->fabric->messages().size());
    events = static_cast<double>(r->events);
  }
  state.counters["messages"] = messages;
  state.counters["events"] = events;
  state.counters["events_per_s_first_tenth"] = first;
  state.counters["events_per_s_last_tenth"] = last;
  state.counters["last_over_first"] = first > 0 ? last / first : 0;
}
BENCHMARK(BM_LongRunKeepsItsSpeed)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
}  // namespace fe
