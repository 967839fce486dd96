#include "control/run/software_run.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <rte_lcore.h>

#include "control/process/process_clock.h"
#include "control/report/message_counts.h"
#include "control/run/capture.h"
#include "control/run/progress_watch.h"
#include "control/scenario/nic_params.h"
#include "control/scenario/validate/scenario_validator.h"
#include "topology/partition.h"

namespace fe::control {

namespace {

// Events between two looks at the wall clock: small enough for a timely progress line, large
// enough that reading the clock costs nothing measurable.
constexpr uint64_t kEventsPerSlice = 1 << 16;

void PrintProgress(std::ostream& out, const Emulation& e, uint64_t events, double wall_s) {
  char line[160];
  std::snprintf(line, sizeof(line),
                "progress: simulated %.3f us, %llu/%zu messages completed, %.2f M events/s\n",
                static_cast<double>(e.sched.Now().ps()) * 1e-6,
                static_cast<unsigned long long>(CountMessages(e.fabric->messages()).completed),
                e.fabric->messages().size(), static_cast<double>(events) / wall_s * 1e-6);
  out << line << std::flush;
}

// The lanes the run's windows go on: run.cores, or one where something shared by every node must
// see the run's events as they happen (why says what, for the user).
uint32_t LanesFor(const fabric_emu::Scenario& scenario, const Emulation& e, bool capture,
                  std::string* why) {
  const uint32_t cores = scenario.run().cores();
  if (cores <= 1) return 1;
  if (e.fabric->lookahead() == Time::Zero()) {
    *why = "a link without delay leaves no window to share";
  } else if (capture) {
    *why = "the capture takes frames in the order they are handled";
  } else if (e.release != nullptr && e.release->releases_within_lookahead()) {
    *why = "a message starts less than a link delay after a delivery at its own sender";
  } else {
    return cores;
  }
  return 1;
}

// The caller's thread and every other lane hold an lcore id.
static_assert(kMaxRunCores <= RTE_MAX_LCORE);

void EnableCores(uint32_t lanes, Emulation* e) {
  const std::vector<uint32_t> part = topo::PartitionNodes(e->graph, lanes);
  std::vector<uint32_t> lane_of_domain(e->fabric->num_domains(), 0);
  for (topo::NodeId n = 0; n < part.size(); ++n) {
    lane_of_domain[dp::Fabric::domain_of(n)] = part[n];
  }
  // A registered thread has an lcore id, hence its own cache of the packet pool.
  e->sched.EnableCores(lanes, std::move(lane_of_domain), [] { rte_thread_register(); });
}

}  // namespace

StatusOr<std::unique_ptr<RateSampler>> NewRateSampler(const fabric_emu::Scenario& scenario,
                                                      Emulation* e, Time interval) {
  StatusOr<dp::NicParams> nic = BuildNicParams(scenario.nic());
  if (!nic.ok()) return nic.status();
  // Unthrottled, a message runs at the rate of the link its sender leaves by.
  const auto line_rate = [e](uint32_t id) {
    const dp::MessageSpec& m = e->fabric->messages().spec(id);
    const topo::Node& src = e->graph.node(e->graph.hosts()[m.src_host]);
    return e->graph.link(src.links[e->graph.HostPortTo(m.src_host, m.dst_host, id)]).rate;
  };
  return std::make_unique<RateSampler>(
      &e->sched, &e->fabric->messages(), nic->cc, line_rate, interval,
      RateSources{&e->fabric->nic(0).config().dcqcn, &e->fabric->hpcc()});
}

namespace {

// Runs on every lane of run.cores that nothing shared rules out; windows either way.
void SetUpLanes(const fabric_emu::Scenario& scenario, bool capture, Emulation* e) {
  e->sched.EnableWindows(e->fabric->lookahead(), e->fabric->num_domains());
  std::string one_core_why;
  if (const uint32_t lanes = LanesFor(scenario, *e, capture, &one_core_why); lanes > 1) {
    EnableCores(lanes, e);
  } else if (!one_core_why.empty() && scenario.run().progress()) {
    std::cerr << "fabric-emu: note: running on one core (run.cores " << scenario.run().cores()
              << "): " << one_core_why << "; the results are the same\n";
  }
}

// The scenario's samplers, started, and the API's view of the run.
Status StartSamplers(const fabric_emu::Scenario& scenario, const SoftwareRunOptions& options,
                     SoftwareRunResult* r) {
  Emulation& e = *r->emulation;
  if (scenario.run().rate_sample_interval_ns() > 0) {
    StatusOr<std::unique_ptr<RateSampler>> rates =
        NewRateSampler(scenario, &e, Time::FromNs(scenario.run().rate_sample_interval_ns()));
    if (!rates.ok()) return rates.status();
    r->rates = std::move(rates).value();
    r->rates->Start();
  }
  if (scenario.run().queue_sample_interval_ns() > 0) {
    r->queues = std::make_unique<QueueSampler>(
        &e.sched, e.fabric.get(), Time::FromNs(scenario.run().queue_sample_interval_ns()));
    r->queues->Start();
  }
  if (options.api != nullptr) {
    StatusOr<std::unique_ptr<RateSampler>> rates = NewRateSampler(scenario, &e, Time::FromNs(1));
    if (!rates.ok()) return rates.status();
    options.api->Attach(&e, scenario.name(),
                        scenario.run().stop_ns() > 0
                            ? std::optional<double>(scenario.run().stop_ns())
                            : std::nullopt,
                        std::move(rates).value());
  }
  return Status::Ok();
}

// Why the run must stop after a slice for lack of memory (packets, sample rows), in r; false
// when it may go on.
bool OutOfMemory(const SoftwareRunOptions& options, SoftwareRunResult* r) {
  const Emulation& e = *r->emulation;
  if (e.fabric->nic_alloc_failures() > 0) {
    r->failure = OutOfPacketsMessage(e.packet_budget, dp::PacketsInUse(e.fabric->pool()),
                                     e.sched.Now(), e.fabric->Totals().nics.retransmit_timeouts);
    r->stop_reason = "packet memory";
    return true;
  }
  // The samplers keep their rows in memory until the run ends: a grid too fine for the fabric
  // and the run's length stops the run with a way out, rather than exhausting memory.
  const size_t rows = (r->rates != nullptr ? r->rates->samples().size() : 0) +
                      (r->queues != nullptr ? r->queues->samples().size() : 0);
  if (rows > options.max_sample_rows) {
    r->failure = "rates.csv and queues.csv would hold more than " +
                 std::to_string(options.max_sample_rows) + " rows by simulated " +
                 std::to_string(e.sched.Now().ns()) +
                 " ns; raise run.rate_sample_interval_ns or run.queue_sample_interval_ns";
    r->stop_reason = "sample row limit";
    return true;
  }
  return false;
}

// Slices of the run until it ends or something stops it (the reason in r->stop_reason).
void RunSlices(const fabric_emu::Scenario& scenario, const SoftwareRunOptions& options,
               dp::PcapngWriter* capture, SoftwareRunResult* r) {
  Emulation& e = *r->emulation;
  const Time stop =
      scenario.run().stop_ns() > 0 ? Time::FromNs(scenario.run().stop_ns()) : Time::Infinite();
  ProgressWatch watch(&e, NoProgressTimeout(scenario));
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  r->startup_wall_s = WallSecondsSinceProcessStart();
  Clock::time_point next_report = start + std::chrono::seconds(1);
  for (;;) {
    // A run that makes no progress checks in at its deadline rather than running past it.
    const Time until = std::min(stop, watch.deadline());
    // Pacing slices the run by wall time: it stops between windows, never cutting one, so that a
    // paced run gives the unpaced run's results.
    const Time start_by =
        options.api != nullptr ? options.api->SliceEnd(e.sched.ran_until()) : Time::Infinite();
    const uint64_t ran = e.sched.RunUntil(until, kEventsPerSlice, start_by);
    r->events += ran;
    if (options.after_slice) options.after_slice(e, r->events);
    if (capture != nullptr) capture->Flush();
    if (OutOfMemory(options, r)) break;
    // Short of a full slice, the scheduler ran everything up to `until`, unless pacing stopped
    // it.
    const bool slice_done =
        ran < kEventsPerSlice && (e.sched.empty() || e.sched.ran_until() > until);
    if (std::optional<std::string> stall =
            watch.Check(slice_done && !e.sched.empty() ? until : e.sched.Now())) {
      r->no_progress = std::move(*stall);
      r->stop_reason = "no progress";
      break;
    }
    if (options.signals != nullptr && options.signals->Requested()) {
      r->stop_signal = options.signals->signal_number();
      r->stop_reason = std::string("signal ") + StopSignals::Name(r->stop_signal);
      break;
    }
    if (slice_done && (e.sched.empty() || until == stop)) break;
    if (options.api != nullptr) {
      options.api->BetweenSlices(e.sched.ran_until(), r->events, nullptr, [&options] {
        return options.signals != nullptr && options.signals->Requested();
      });
      if (options.api->stop_requested()) {
        r->stop_reason = "api shutdown";
        break;
      }
    }
    if (options.progress != nullptr && Clock::now() >= next_report) {
      PrintProgress(*options.progress, e, r->events,
                    std::chrono::duration<double>(Clock::now() - start).count());
      next_report += std::chrono::seconds(1);
    }
  }
  r->wall_time_s = std::chrono::duration<double>(Clock::now() - start).count();
}

// The run's length: when its last message completed, unless it was stopped first.
Time SimulatedTime(const Emulation& e, bool stopped) {
  if (stopped) return e.sched.Now();
  Time last = Time::Zero();
  const dp::MessageTable& messages = e.fabric->messages();
  for (uint32_t id = 0; id < messages.size(); ++id) {
    const Time end = messages.completed(id) ? messages.sender[id].completed_at
                                            : messages.receiver[id].delivered_at;
    if (end != Time::Infinite() && end > last) last = end;
  }
  return last;
}

}  // namespace

StatusOr<SoftwareRunResult> RunSoftware(const fabric_emu::Scenario& scenario,
                                        const SoftwareRunOptions& options) {
  StatusOr<std::unique_ptr<Emulation>> built =
      BuildEmulation(scenario, options.seed, options.scenario_dir, dp::PoolMemory::kHostPages);
  if (!built.ok()) return built.status();
  SoftwareRunResult r;
  r.emulation = std::move(built).value();
  Emulation& e = *r.emulation;
  for (const AppliedCommand& c : options.replay) {
    e.commands->ScheduleAt(c.at, c.command, CommandSource::kReplay);
  }

  StatusOr<std::unique_ptr<dp::PcapngWriter>> capture =
      AttachCapture(scenario, options.out_dir, &e);
  if (!capture.ok()) return capture.status();
  SetUpLanes(scenario, *capture != nullptr, &e);
  // A window runs node after node: frames reach the capture out of time order within a window,
  // and are written in order at the end of each slice (whole windows) of the run.
  if (*capture != nullptr) (*capture)->HoldUntilFlush();
  if (Status s = StartSamplers(scenario, options, &r); !s.ok()) return s;
  RunSlices(scenario, options, capture->get(), &r);
  DetachCapture(scenario, &e);
  // Lazy timers (retransmission, rate increase) may outlive the traffic and fire as no-ops:
  // events left at the stop mean work was cut short only if some message is not finished yet.
  r.stopped_early = !e.sched.empty() && e.fabric->MessagesUnfinished() > 0;
  if (r.stopped_early && r.stop_reason.empty()) r.stop_reason = "run.stop_ns";
  r.simulated_time = SimulatedTime(e, !r.stop_reason.empty());
  return r;
}

}  // namespace fe::control
