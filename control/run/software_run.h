// Software mode: the fabric in virtual time, as fast as the CPU allows, deterministic for a seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "control/api/api_session.h"
#include "control/emulation/emulation.h"
#include "control/process/stop_signals.h"
#include "control/report/queue_sampler.h"
#include "control/report/rate_sampler.h"
#include "core/status.h"
#include "proto/scenario.pb.h"

namespace fe::control {

// At most this many rows in rates.csv and queues.csv together (about 0.5 GB while the run holds
// them); a run that would sample more stops there, its outputs standing, and fails with an error
// naming the intervals.
inline constexpr size_t kMaxSampleRows = 20'000'000;

struct SoftwareRunOptions {
  uint64_t seed = 1;
  std::string scenario_dir = ".";
  std::ostream* progress = nullptr;  // a progress line about once a second, if set
  std::string out_dir = ".";         // where the scenario's capture file, if any, is written
  size_t max_sample_rows = kMaxSampleRows;
  // Looked at between slices of the run: SIGINT or SIGTERM stops it there (nullptr: never).
  StopSignals* signals = nullptr;
  // The HTTP API, served between slices, which it may pace (nullptr: none).
  api::ApiSession* api = nullptr;
  // Commands to run at their times (a replayed events.csv, control/emulation/events_csv.h).
  std::vector<AppliedCommand> replay;
  // Called after every slice with the emulation and the events run so far: a benchmark's view of
  // the speed along the run (empty: none).
  std::function<void(const Emulation& e, uint64_t events)> after_slice;
};

struct SoftwareRunResult {
  std::unique_ptr<Emulation> emulation;
  Time simulated_time;
  uint64_t events = 0;
  double wall_time_s = 0;
  double startup_wall_s = 0;  // from the process's start to the first event
  // The run ended before every message finished (completed, given up or never to start).
  bool stopped_early = false;
  // Why the run ended there: "run.stop_ns", "signal SIGINT" or "signal SIGTERM", "no progress",
  // "api shutdown", "packet memory", "sample row limit"; empty when every message finished.
  std::string stop_reason;
  int stop_signal = 0;  // SIGINT or SIGTERM when a signal stopped the run
  // Set when the run stopped for want of progress (control/run/progress_watch.h): which flows,
  // where their frames are dropped and the setting behind it. The run has failed, its outputs
  // stand.
  std::string no_progress;
  // Set when the run could not go on, saying why: its packets outgrew the pool
  // (control/scenario/packet_budget.h), or the samplers' rows passed
  // SoftwareRunOptions::max_sample_rows (then what to raise). The run has failed, its outputs (the
  // rows so far too) stand.
  std::string failure;
  std::unique_ptr<RateSampler> rates;    // set when run.rate_sample_interval_ns > 0
  std::unique_ptr<QueueSampler> queues;  // set when run.queue_sample_interval_ns > 0
};

// A rate sampler over e's messages with the scenario's congestion control, every `interval` once
// started (unstarted, it still answers RateOf).
StatusOr<std::unique_ptr<RateSampler>> NewRateSampler(const fabric_emu::Scenario& scenario,
                                                      Emulation* e, Time interval);

StatusOr<SoftwareRunResult> RunSoftware(const fabric_emu::Scenario& scenario,
                                        const SoftwareRunOptions& options);

}  // namespace fe::control
