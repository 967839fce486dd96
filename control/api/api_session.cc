#include "control/api/api_session.h"

#include <algorithm>
#include <thread>
#include <utility>

#include <nlohmann/json.hpp>

#include "control/api/api_token.h"
#include "control/emulation/command_executor.h"
#include "control/process/output_dir.h"
#include "control/process/stop_signals.h"
#include "control/scenario/command_json.h"
#include "control/scenario/validate/validate_command.h"

namespace fe::control::api {

namespace {

using Clock = std::chrono::steady_clock;

// A paced run checks the wall clock at least this often: the longest it runs ahead of its pace.
constexpr std::chrono::milliseconds kPaceStep{10};
// The longest a paced run waits for its pace: a century.
constexpr double kLongestWaitS = 100 * 365.25 * 86400;

std::string Url(const ListenAddress& a, uint16_t port) {
  const bool v6 = a.host.find(':') != std::string::npos;
  return "http://" + (v6 ? "[" + a.host + "]" : a.host) + ":" + std::to_string(port);
}

}  // namespace

ApiSession::ApiSession(const ApiOptions& options, std::string mode, std::string token)
    : options_(options), mode_(std::move(mode)), token_(std::move(token)), start_(Clock::now()) {}

StatusOr<std::unique_ptr<ApiSession>> ApiSession::Start(const ApiOptions& options,
                                                        const std::string& mode,
                                                        const std::string& out_dir,
                                                        std::ostream& log) {
  if (Status s = CheckApiOptions(options); !s.ok()) return s;
  std::string token_where;
  StatusOr<std::string> token = Status::Error("");
  if (!options.token_file.empty()) {
    token = ReadTokenFile(options.token_file);
    token_where = options.token_file;
  } else {
    token = NewToken();
    token_where = out_dir + "/" + std::string(kApiTokenFileName);
    if (token.ok()) {
      if (Status s = WriteTokenFile(token_where, *token); !s.ok()) return s;
    }
  }
  if (!token.ok()) return token.status();
  std::unique_ptr<ApiSession> session(new ApiSession(options, mode, *token));
  HttpServerParams params;
  params.address = *options.listen;
  ApiSession* raw = session.get();
  StatusOr<std::unique_ptr<HttpServer>> server = HttpServer::Start(
      params, [raw](const ApiRequest& r) { return HandleRequest(r, raw->token_, *raw); });
  if (!server.ok()) return server.status();
  session->server_ = std::move(server).value();
  log << "api: listening on " << Url(*options.listen, session->port()) << "; bearer token "
      << (options.token_file.empty() ? *token + " (also in " + token_where + ")"
                                     : "from " + token_where)
      << "\n"
      << std::flush;
  return session;
}

ApiSession::~ApiSession() {
  // Requests still waiting for the loop get an answer before the server's threads are joined.
  if (!finished_.load()) channel_.Finish(nullptr);
}

void ApiSession::Attach(Emulation* emulation, const std::string& scenario,
                        std::optional<double> stop_ns, std::unique_ptr<RateSampler> rates) {
  emulation_ = emulation;
  rates_ = std::move(rates);
  source_.emulation = emulation;
  source_.rates = rates_.get();
  source_.scenario = scenario;
  source_.stop_ns = stop_ns;
  source_.mode = mode_;
  source_.pace = options_.pace;
  start_ = Clock::now();
}

Time ApiSession::SliceEnd(Time now) const {
  if (!options_.pace || unpaced_) return Time::Infinite();
  const double step_ps = *options_.pace * std::chrono::duration<double>(kPaceStep).count() * 1e12;
  // From where the last slice reached: the scheduler's clock stays at its last event while
  // slices with no event in them go by.
  return std::max(now, reached_) + Time::FromPs(static_cast<int64_t>(std::max(step_ps, 1.0)));
}

std::string ApiSession::ReadOnlyReason(bool finished) const {
  if (finished) return "the run has finished";
  if (mode_ == "software" && !options_.pace) {
    return "read-only: this run goes as fast as it can; run it with --pace X to change it while "
           "it runs";
  }
  return "";
}

RunSnapshot ApiSession::Take(bool with_flows, bool finished, bool stopped) const {
  RunProgress p;
  p.stopped = stopped;
  p.events = events_;
  p.wall_time_s = std::chrono::duration<double>(Clock::now() - start_).count();
  p.finished = finished;
  p.read_only_reason = ReadOnlyReason(finished);
  p.lateness = lateness_;
  if (lateness_ != nullptr && p.events == 0) p.events = lateness_->count();
  return TakeSnapshot(source_, p, with_flows);
}

void ApiSession::BetweenSlices(Time now, uint64_t events, const dp::LatenessHistogram* lateness,
                               const std::function<bool()>& interrupted) {
  reached_ = now;
  events_ = events;
  lateness_ = lateness;
  const auto take = [this](bool with_flows) {
    return std::make_shared<const RunSnapshot>(Take(with_flows, false));
  };
  channel_.Serve(take);
  if (!options_.pace || unpaced_) return;
  if (AllFinished()) {
    unpaced_ = true;
    return;
  }
  // Saturated: a slow pace over a long run lies past what the clock counts (292 years).
  const double due_s = std::min(now.seconds() / *options_.pace, kLongestWaitS);
  const auto due =
      start_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(due_s));
  // Woken at least every step: neither a shutdown nor a signal posts work to the channel.
  while (Clock::now() < due && !stop_requested() && !(interrupted && interrupted())) {
    channel_.WaitForWork(std::min(due, Clock::now() + kPaceStep));
    channel_.Serve(take);
  }
}

bool ApiSession::AllFinished() const {
  // Once every message is finished only lazy timers are left, firing as no-ops: nothing to watch,
  // so the run ends at full speed rather than waiting for them in wall time.
  // Counted by the NICs: no walk over the messages finished so far, between every two slices.
  return source_.emulation->fabric->MessagesUnfinished() == 0;
}

void ApiSession::Finish(uint64_t events, double wall_time_s, const dp::LatenessHistogram* lateness,
                        std::optional<Time> simulated_time, bool stopped_early) {
  events_ = events;
  lateness_ = lateness;
  RunSnapshot last = Take(true, true, stopped_early);
  last.wall_time_s = wall_time_s;
  if (simulated_time) last.simulated_time_ns = simulated_time->fractional_ns();
  finished_.store(true);
  channel_.Finish(std::make_shared<const RunSnapshot>(std::move(last)));
}

void ApiSession::HoldIfAsked(std::ostream& log, bool signalled) {
  // A shutdown asked during the run ends the hold too, and so does a signal that stopped it.
  if (!options_.hold || stop_requested() || signalled) return;
  StopSignals signals;
  log << "api: the run has finished; still answering on " << Url(*options_.listen, port())
      << " until POST /v1/shutdown, Ctrl-C, SIGTERM or SIGHUP\n"
      << std::flush;
  std::unique_lock lock(hold_mu_);
  // The signals come through a descriptor, not a wakeup: look at it every 50 ms.
  while (!shutdown_ && !(signals.ok() && signals.Requested())) {
    hold_cv_.wait_for(lock, std::chrono::milliseconds(50));
  }
}

std::shared_ptr<const RunSnapshot> ApiSession::Snapshot(bool with_flows) {
  return channel_.Snapshot(with_flows, kSnapshotTimeout);
}

ApiResponse ApiSession::Command(const std::string& body) {
  // A command, or one sent ahead with at_ns as in a schedule entry.
  StatusOr<fabric_emu::ScheduledCommand> entry = ParseScheduledCommandJson(body);
  if (!entry.ok()) return ErrorResponse(400, entry.status().message());
  if (Status s = ValidateCommandTime(*entry); !s.ok()) return ErrorResponse(400, s.message());
  if (const std::string reason = ReadOnlyReason(finished_.load()); !reason.empty()) {
    return ErrorResponse(409, reason);
  }
  // The loop applies it between slices; the outcome comes back through `pending`, and the answer
  // is written here, off the loop's thread, which real time needs back at once. A request that
  // gives up waiting marks it abandoned under the lock, so a command is applied only if its
  // client is told so.
  struct Pending {
    std::mutex mu;
    std::condition_variable done;
    std::optional<StatusOr<Time>> applied_at;
    bool run_over = false;
    bool abandoned = false;
  };
  auto pending = std::make_shared<Pending>();
  const fabric_emu::Command command = CommandOf(*entry);
  channel_.Post([this, pending, command,
                 at_ns = entry->has_at_ns() ? std::optional<double>(entry->at_ns())
                                            : std::nullopt](bool run_over) {
    std::unique_lock lock(pending->mu);
    if (pending->abandoned) return;
    if (run_over) {
      pending->run_over = true;
    } else if (!at_ns && live_clock_ != nullptr) {
      pending->applied_at =
          emulation_->commands->ApplyLive(*live_clock_, command, CommandSource::kApi);
    } else {
      // Without at_ns: where the run has reached, between two windows, so that a replay (a
      // schedule entry at that time) runs the same windows; in real time, now (above). With
      // at_ns: then, as a schedule entry (a past time is refused).
      const Time at = at_ns ? Time::FromNs(*at_ns)
                            : std::max(emulation_->sched.ran_until(),
                                       emulation_->sched.Now() + Time::FromPs(1));
      const Status s = emulation_->commands->ApplyAt(at, command, CommandSource::kApi);
      pending->applied_at = s.ok() ? StatusOr<Time>(at) : StatusOr<Time>(s);
    }
    lock.unlock();  // the waiter wakes to a free lock
    pending->done.notify_all();
  });
  std::unique_lock lock(pending->mu);
  if (!pending->done.wait_for(lock, kSnapshotTimeout, [&] {
        return pending->run_over || pending->applied_at.has_value();
      })) {
    pending->abandoned = true;
    ApiResponse busy =
        ErrorResponse(503, "the run did not take the command in time; it was not applied");
    busy.headers.emplace_back("Retry-After", "1");
    return busy;
  }
  if (pending->run_over) {
    return ErrorResponse(409, "the run finished before the command was applied");
  }
  const StatusOr<Time>& applied = *pending->applied_at;
  if (!applied.ok()) return ErrorResponse(400, applied.status().message());
  nlohmann::ordered_json j;
  j["accepted"] = nlohmann::ordered_json::parse(CommandJson(command));
  j["at_ns"] = applied->fractional_ns();
  return ApiResponse{202, "application/json", j.dump(2) + "\n", {}};
}

ApiResponse ApiSession::Shutdown() {
  if (!finished_.load()) {
    stop_requested_.store(true, std::memory_order_release);
    return ApiResponse{
        202, "application/json", "{\"shutdown\": \"the run stops at its next slice\"}\n", {}};
  }
  {
    std::lock_guard lock(hold_mu_);
    shutdown_ = true;
  }
  hold_cv_.notify_all();
  return ApiResponse{200, "application/json", "{\"shutdown\": \"the API stops now\"}\n", {}};
}

}  // namespace fe::control::api
