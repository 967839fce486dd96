#include "control/report/html/report_input.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "control/report/html/csv_reader.h"
#include "control/report/html/svg_text.h"
#include "core/file_text.h"
#include "core/json_nesting.h"

namespace fe::control::html {
namespace {

// summary.json is some tens of MB at k = 16; a file far past that is not a run's.
constexpr int64_t kMaxReportInputBytes = int64_t{1} << 30;

StatusOr<std::string> ReadFile(const std::string& path) {
  return ReadCommandLineFile(path, kMaxReportInputBytes, "a run's output",
                             "give the --out directory of a run");
}

Status LoadFailures(const ReportInput& in, std::vector<RunEvent>* events) {
  const Json& failures = Field(in.summary, "failures");
  const Json& list = Field(failures, "events");
  if (list.is_null()) return Status::Ok();
  if (!list.is_array())
    return Status::Error(in.Path("summary.json") + ": failures.events is not an array");
  for (const Json& e : list) {
    RunEvent ev;
    ev.failure = true;
    ev.at_ns = NumberOr(Field(e, "at_ns"), NAN);
    if (!std::isfinite(ev.at_ns)) {
      return Status::Error(in.Path("summary.json") + ": a failure event without a numeric at_ns");
    }
    const Json& kind = Field(e, "kind");
    const Json& target = Field(e, "target");
    ev.source = kind.is_string() ? kind.get<std::string>() : "";
    ev.what = target.is_string() ? target.get<std::string>() : "";
    const Json& reroute = Field(e, "reroute_ns");
    if (reroute.is_number()) ev.reroute_ns = reroute.get<double>();
    events->push_back(std::move(ev));
  }
  return Status::Ok();
}

Status LoadCommands(const ReportInput& in, std::vector<RunEvent>* events) {
  StatusOr<CsvReader> csv = CsvReader::Open(in.Path("events.csv"));
  if (!csv.ok()) return csv.status();
  StatusOr<size_t> time = csv->Column("time_ns");
  StatusOr<size_t> source = csv->Column("source");
  StatusOr<size_t> command = csv->Column("command");
  for (const auto* c : {&time, &source, &command}) {
    if (!c->ok()) return c->status();
  }
  while (true) {
    StatusOr<bool> next = csv->Next();
    if (!next.ok()) return next.status();
    if (!*next) break;
    StatusOr<double> at = csv->Number(*time);
    if (!at.ok()) return at.status();
    events->push_back(RunEvent{
        .at_ns = *at, .failure = false, .source = csv->Text(*source), .what = csv->Text(*command)});
  }
  return Status::Ok();
}

}  // namespace

bool ReportInput::Has(std::string_view name) const {
  std::error_code ec;
  return std::filesystem::is_regular_file(Path(name), ec);
}

const Json& Field(const Json& object, std::string_view key) {
  static const Json kNull;
  if (!object.is_object()) return kNull;
  const auto it = object.find(std::string(key));
  return it == object.end() ? kNull : *it;
}

std::string NumberText(const Json& value) {
  if (value.is_number_unsigned()) return std::to_string(value.get<uint64_t>());
  if (value.is_number_integer()) return std::to_string(value.get<int64_t>());
  if (value.is_number_float()) return svg::ExactNumber(value.get<double>());
  if (value.is_null()) return "-";
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

double NumberOr(const Json& value, double fallback) {
  return value.is_number() ? value.get<double>() : fallback;
}

StatusOr<ReportInput> LoadReportInput(const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return Status::Error(dir + ": no such directory (give the --out directory of a run)");
  }
  ReportInput in;
  in.dir = dir;
  if (!in.Has("summary.json")) {
    return Status::Error(in.Path("summary.json") +
                         ": not found; is this the output directory of a finished run? "
                         "(fabric-emu run SCENARIO --out " +
                         dir + " writes it)");
  }
  StatusOr<std::string> text = ReadFile(in.Path("summary.json"));
  if (!text.ok()) return text.status();
  if (Status deep = CheckJsonNesting(*text); !deep.ok()) {
    return Status::Error(in.Path("summary.json") + ": not a run's summary: " + deep.message());
  }
  in.summary = Json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (in.summary.is_discarded() || !in.summary.is_object()) {
    return Status::Error(in.Path("summary.json") + ": not a JSON object");
  }
  if (in.Has("scenario.textproto")) {
    StatusOr<std::string> scenario = ReadFile(in.Path("scenario.textproto"));
    if (!scenario.ok()) return scenario.status();
    in.scenario_text = std::move(*scenario);
  }
  if (Status s = LoadFailures(in, &in.events); !s.ok()) return s;
  in.has_events_csv = in.Has("events.csv");
  if (in.has_events_csv) {
    if (Status s = LoadCommands(in, &in.events); !s.ok()) return s;
  }
  std::stable_sort(in.events.begin(), in.events.end(),
                   [](const RunEvent& a, const RunEvent& b) { return a.at_ns < b.at_ns; });
  return in;
}

}  // namespace fe::control::html
