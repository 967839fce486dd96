// What a report is made from: a run's output directory, its summary.json parsed, the scenario as
// run (scenario.textproto, when the run wrote it) and the run's events (failures from
// summary.json, commands from events.csv) in time order. The CSVs are read by the sections that
// draw them, one record at a time.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace fe::control::html {

using Json = nlohmann::json;

// A change of the fabric during the run.
struct RunEvent {
  double at_ns = 0;
  bool failure = false;  // from summary.json's failures; else a command from events.csv
  std::string source;    // a failure's kind (link_down, ...); a command's source (schedule, api)
  std::string what{};    // a failure's target; the command
  std::optional<double> reroute_ns{};  // a failure's: when routes took it in
};

struct ReportInput {
  std::string dir{};
  Json summary{};
  std::optional<std::string> scenario_text{};
  bool has_events_csv = false;
  std::vector<RunEvent> events{};

  std::string Path(std::string_view name) const { return dir + "/" + std::string(name); }
  // Whether the run left this output (a regular file, or a link to one).
  bool Has(std::string_view name) const;
};

// Errors: a directory that does not exist, a missing or unparsable summary.json, a malformed
// events.csv (file:line).
StatusOr<ReportInput> LoadReportInput(const std::string& dir);

// summary.json's value at `key` of `object` (null if absent or not an object).
const Json& Field(const Json& object, std::string_view key);
// A number as summary.json wrote it: integers whole, others as the shortest exact decimal.
std::string NumberText(const Json& value);
// A number, or `fallback` if the value is not one.
double NumberOr(const Json& value, double fallback);

}  // namespace fe::control::html
