#include "control/cli/option_values.h"

#include <charconv>
#include <cmath>
#include <string>

#include "control/scenario/validate/scenario_validator.h"
#include "dataplane/eal.h"

namespace fe::control {
namespace {

// --duration-s becomes run.stop_ns, which validation holds to kMaxScenarioTimeNs.
constexpr double kMaxDurationS = kMaxScenarioTimeNs * 1e-9;

// Runs at once in a sweep: each is a process of its own.
constexpr int kMaxJobs = 1024;

// The whole of `value` as a number: no sign where T has none, nothing left over.
template <typename T>
bool ParseWhole(std::string_view value, T* number) {
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), *number);
  return !value.empty() && ec == std::errc() && end == value.data() + value.size();
}

std::string Quoted(std::string_view value) { return "'" + std::string(value) + "'"; }

}  // namespace

Status SetOutDir(std::string_view flag, std::string_view value, CliArgs* args) {
  if (value.empty()) return Status::Error(std::string(flag) + " needs a directory");
  args->out_dir = std::string(value);
  return Status::Ok();
}

Status SetSeed(std::string_view flag, std::string_view value, CliArgs* args) {
  uint64_t seed = 0;
  if (!ParseWhole(value, &seed)) {
    return Status::Error(std::string(flag) + " takes a whole number from 0 to 2^64-1, got " +
                         Quoted(value));
  }
  args->seed = seed;
  return Status::Ok();
}

Status SetQuiet(std::string_view, std::string_view, CliArgs* args) {
  args->quiet = true;
  return Status::Ok();
}

Status SetReport(std::string_view, std::string_view, CliArgs* args) {
  args->report = true;
  return Status::Ok();
}

Status SetEvents(std::string_view flag, std::string_view value, CliArgs* args) {
  if (value.empty()) return Status::Error(std::string(flag) + " needs an events.csv file");
  args->events_file = std::string(value);
  return Status::Ok();
}

// Parsed by control/sweep/, which knows the scenario's fields.
Status AddSet(std::string_view, std::string_view value, CliArgs* args) {
  args->set.emplace_back(value);
  return Status::Ok();
}

Status SetCores(std::string_view flag, std::string_view value, CliArgs* args) {
  uint32_t cores = 0;
  if (!ParseWhole(value, &cores) || cores < 1 || cores > MachineCores()) {
    return Status::Error(std::string(flag) + " takes a whole number from 1 to " +
                         std::to_string(MachineCores()) + ", the machine's cores, got " +
                         Quoted(value));
  }
  args->cores = cores;
  return Status::Ok();
}

Status SetRealtime(std::string_view, std::string_view, CliArgs* args) {
  args->command = Command::kServe;
  return Status::Ok();
}

Status SetEalArgs(std::string_view flag, std::string_view value, CliArgs* args) {
  if (const std::string why = dp::RefusedEalArgs(dp::SplitEalArgs(std::string(value)));
      !why.empty()) {
    return Status::Error(std::string(flag) + ": " + why);
  }
  args->eal_args = std::string(value);
  return Status::Ok();
}

Status SetDurationS(std::string_view flag, std::string_view value, CliArgs* args) {
  double seconds = 0;
  if (!ParseWhole(value, &seconds) || !std::isfinite(seconds) || seconds <= 0 ||
      seconds > kMaxDurationS) {
    return Status::Error(std::string(flag) +
                         " takes a number of seconds > 0 and at most 1e6 (as run.stop_ns, at "
                         "most 1e15 ns), got " +
                         Quoted(value));
  }
  args->duration_s = seconds;
  return Status::Ok();
}

Status SetApiListen(std::string_view, std::string_view value, CliArgs* args) {
  StatusOr<api::ListenAddress> listen = api::ParseListenAddress(value);
  if (!listen.ok()) return listen.status();
  args->api.listen = *listen;
  return Status::Ok();
}

Status SetApiTokenFile(std::string_view flag, std::string_view value, CliArgs* args) {
  if (value.empty()) return Status::Error(std::string(flag) + " needs a file");
  args->api.token_file = std::string(value);
  return Status::Ok();
}

Status SetApiAllowRemote(std::string_view, std::string_view, CliArgs* args) {
  args->api.allow_remote = true;
  return Status::Ok();
}

Status SetApiHold(std::string_view, std::string_view, CliArgs* args) {
  args->api.hold = true;
  return Status::Ok();
}

Status SetPace(std::string_view, std::string_view value, CliArgs* args) {
  StatusOr<double> pace = api::ParsePace(value);
  if (!pace.ok()) return pace.status();
  args->api.pace = *pace;
  return Status::Ok();
}

Status SetPair(std::string_view flag, std::string_view value, CliArgs* args) {
  const size_t comma = value.find(',');
  if (comma == std::string_view::npos || comma == 0 || comma + 1 == value.size()) {
    return Status::Error(std::string(flag) + " takes two endpoints A,B (host index or name), got " +
                         Quoted(value));
  }
  args->pair.emplace(std::string(value.substr(0, comma)), std::string(value.substr(comma + 1)));
  return Status::Ok();
}

Status SetDotFile(std::string_view flag, std::string_view value, CliArgs* args) {
  if (value.empty()) return Status::Error(std::string(flag) + " needs a file, or - for stdout");
  args->dot_file = std::string(value);
  return Status::Ok();
}

Status SetJsonFile(std::string_view flag, std::string_view value, CliArgs* args) {
  if (value.empty()) return Status::Error(std::string(flag) + " needs a file, or - for stdout");
  args->json_file = std::string(value);
  return Status::Ok();
}

Status SetExportFile(std::string_view flag, std::string_view value, CliArgs* args) {
  if (value.empty()) return Status::Error(std::string(flag) + " needs a file, or - for stdout");
  args->export_file = std::string(value);
  return Status::Ok();
}

Status SetJobs(std::string_view flag, std::string_view value, CliArgs* args) {
  int jobs = 0;
  if (!ParseWhole(value, &jobs) || jobs < 1 || jobs > kMaxJobs) {
    return Status::Error(std::string(flag) + " takes a whole number from 1 to " +
                         std::to_string(kMaxJobs) + ", got " + Quoted(value));
  }
  args->jobs = jobs;
  return Status::Ok();
}

}  // namespace fe::control
