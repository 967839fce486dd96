// The HTTP API of one run: the server on its own threads, the channel to the run's loop, pacing
// and the end of the run. The loop calls BetweenSlices after each slice of its work (cheap when
// the API asked nothing) and Finish once its outputs are written; from then on the API answers
// from the final snapshot, with state "finished", until the process ends (at once, or with
// --api-hold when POST /v1/shutdown or Ctrl-C comes).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>

#include "control/api/api_options.h"
#include "control/api/api_router.h"
#include "control/api/http_server.h"
#include "control/api/loop_channel.h"
#include "control/api/snapshot.h"
#include "core/clock.h"
#include "core/status.h"

namespace fe::control::api {

// How long a request waits for the loop's snapshot before it answers 503.
inline constexpr std::chrono::milliseconds kSnapshotTimeout{5000};

class ApiSession final : public ApiBackend {
 public:
  // Listens (before returning) and says where on `log`, with the token: read from
  // --api-token-file, or a new one written to OUT_DIR/api-token (mode 0600). Threads started
  // here inherit the caller's signal mask: start it after blocking SIGINT and SIGTERM.
  // `mode`: "software" or "realtime".
  static StatusOr<std::unique_ptr<ApiSession>> Start(const ApiOptions& options,
                                                     const std::string& mode,
                                                     const std::string& out_dir, std::ostream& log);
  ~ApiSession() override;

  // Before the loop starts: the run snapshots read and commands act on (through its executor, on
  // the loop's thread), and an unstarted rate sampler for its QPs' current rates (the session
  // keeps it). Pacing counts wall time from here.
  void Attach(Emulation* emulation, const std::string& scenario, std::optional<double> stop_ns,
              std::unique_ptr<RateSampler> rates);

  // Real time: the clock the loop runs events by, from its start. A command is dated by it when
  // it is applied, not by the last event an idle fabric ran, which is in the past: dated so, the
  // command would run late by the idle time and count against the loop's lateness.
  void UseLiveClock(const Clock* clock) { live_clock_ = clock; }

  // Loop side.
  // Where the next slice should stop at the latest (paced runs, until every message has
  // finished; infinite otherwise).
  Time SliceEnd(Time now) const;
  // Answers what the API asked; paced, then waits (still answering) until wall time has caught
  // up with `now` / pace, or a shutdown or `interrupted()` (a stop signal) ends the wait.
  void BetweenSlices(Time now, uint64_t events, const dp::LatenessHistogram* lateness = nullptr,
                     const std::function<bool()>& interrupted = {});
  // POST /v1/shutdown came while the run was going: stop it at the next slice.
  bool stop_requested() const { return stop_requested_.load(std::memory_order_acquire); }
  // The run is over and its outputs are written (summary.json): the final snapshot answers from
  // now on, with the same counters and summary.json's simulated time (when given: a software
  // run's ends at its last completion, while the clock went on to the timers after it).
  // `stopped_early`: the run ended before its messages did (a signal, run.stop_ns, a shutdown):
  // the API then says "stopped", with the progress made, rather than "finished".
  void Finish(uint64_t events, double wall_time_s, const dp::LatenessHistogram* lateness,
              std::optional<Time> simulated_time = std::nullopt, bool stopped_early = false);
  // With --api-hold: answers until POST /v1/shutdown, SIGINT, SIGTERM or SIGHUP. Returns at once
  // without, and when a signal already ended the run (`signalled`): it asked the process to end.
  void HoldIfAsked(std::ostream& log, bool signalled = false);

  uint16_t port() const { return server_->port(); }

  // ApiBackend, on the server's threads. Command: 400 for a command that does not parse or
  // validate (the scenario validator's message), 409 while the run is read-only or over, 202 once
  // the loop has scheduled it (before any event not yet run; events.csv records it, source api).
  std::shared_ptr<const RunSnapshot> Snapshot(bool with_flows) override;
  ApiResponse Command(const std::string& body) override;
  ApiResponse Shutdown() override;

 private:
  ApiSession(const ApiOptions& options, std::string mode, std::string token);
  RunSnapshot Take(bool with_flows, bool finished, bool stopped = false) const;
  std::string ReadOnlyReason(bool finished) const;
  bool AllFinished() const;

  ApiOptions options_;
  const std::string mode_;
  std::string token_;
  LoopChannel channel_;
  Emulation* emulation_ = nullptr;
  SnapshotSource source_;
  std::unique_ptr<RateSampler> rates_;
  std::chrono::steady_clock::time_point start_;
  // Loop-side figures for the snapshots, written by the loop's thread only.
  uint64_t events_ = 0;
  Time reached_;  // simulated time the last slice reached
  const Clock* live_clock_ = nullptr;
  bool unpaced_ = false;  // every message finished: the rest runs at full speed
  const dp::LatenessHistogram* lateness_ = nullptr;
  std::atomic<bool> stop_requested_{false};
  std::atomic<bool> finished_{false};
  std::mutex hold_mu_;
  std::condition_variable hold_cv_;
  bool shutdown_ = false;               // under hold_mu_
  std::unique_ptr<HttpServer> server_;  // last: its threads stop first
};

}  // namespace fe::control::api
