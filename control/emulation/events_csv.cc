#include "control/emulation/events_csv.h"

#include <charconv>
#include <cstdio>
#include <sstream>
#include <string_view>

#include "control/scenario/command_json.h"
#include "control/scenario/validate/validate_command.h"
#include "core/file_text.h"
#include "topology/build.h"

namespace fe::control {
namespace {

// A row is about a hundred bytes: millions of commands.
constexpr int64_t kMaxEventsFileBytes = int64_t{256} << 20;

constexpr std::string_view kHeader = "time_ns,source,command";

std::string CsvQuoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// "123.456" (up to 3 decimals) as ps, exactly.
bool ParseNsExact(std::string_view s, Time* t) {
  const size_t dot = s.find('.');
  const std::string_view whole = s.substr(0, dot);
  const std::string_view frac = dot == std::string_view::npos ? "" : s.substr(dot + 1);
  if (whole.empty() || frac.size() > 3) return false;
  int64_t ns = 0;
  if (auto [end, ec] = std::from_chars(whole.data(), whole.data() + whole.size(), ns);
      ec != std::errc() || end != whole.data() + whole.size() || ns < 0 ||
      ns > static_cast<int64_t>(kMaxScenarioTimeNs)) {
    return false;
  }
  int64_t ps = 0;
  for (size_t i = 0; i < 3; ++i) {
    const char c = i < frac.size() ? frac[i] : '0';
    if (c < '0' || c > '9') return false;
    ps = ps * 10 + (c - '0');
  }
  *t = Time::FromPs(ns * 1000 + ps);
  return true;
}

}  // namespace

std::string NsExact(Time t) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%lld.%03lld", static_cast<long long>(t.ps() / 1000),
                static_cast<long long>(t.ps() % 1000));
  return buf;
}

std::string EventsCsv(std::span<const AppliedCommand> applied) {
  std::string out = std::string(kHeader) + "\n";
  for (const AppliedCommand& c : applied) {
    out += NsExact(c.at) + "," + std::string(SourceName(c.source)) + "," +
           CsvQuoted(CommandJson(c.command)) + "\n";
  }
  return out;
}

StatusOr<std::vector<EventRow>> ParseEventsCsv(const std::string& text, const std::string& file) {
  std::vector<EventRow> rows;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  const auto error = [&](const std::string& why) {
    return Status::Error(file + ":" + std::to_string(number) + ": " + why);
  };
  while (std::getline(in, line)) {
    ++number;
    // A file saved on Windows ends its lines in CR LF; the CR belongs to no field.
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (number == 1) {
      if (line != kHeader) return error("the header must read " + std::string(kHeader));
      continue;
    }
    if (line.empty()) continue;
    const size_t c1 = line.find(',');
    const size_t c2 = c1 == std::string::npos ? c1 : line.find(',', c1 + 1);
    if (c2 == std::string::npos) return error("a row reads time_ns,source,\"command JSON\"");
    EventRow event{number, {}};
    AppliedCommand& row = event.applied;
    if (!ParseNsExact(std::string_view(line).substr(0, c1), &row.at)) {
      return error("time_ns: a time in ns from 0 to 1e15, digits with at most 3 decimals, got \"" +
                   line.substr(0, c1) + "\"");
    }
    const std::string source = line.substr(c1 + 1, c2 - c1 - 1);
    if (source == "schedule") {
      row.source = CommandSource::kSchedule;
    } else if (source == "api") {
      row.source = CommandSource::kApi;
    } else if (source == "replay") {
      row.source = CommandSource::kReplay;
    } else {
      return error("source: schedule, api or replay, got \"" + source + "\"");
    }
    const std::string quoted = line.substr(c2 + 1);
    if (quoted.size() < 2 || quoted.front() != '"' || quoted.back() != '"') {
      return error("command: JSON in double quotes");
    }
    std::string json;
    for (size_t i = 1; i + 1 < quoted.size(); ++i) {
      json += quoted[i];
      if (quoted[i] == '"') ++i;  // "" stands for "
    }
    StatusOr<fabric_emu::Command> command = ParseCommandJson(json);
    if (!command.ok()) return error(command.status().message());
    row.command = std::move(command).value();
    rows.push_back(std::move(event));
  }
  if (number == 0)
    return Status::Error(file + ": empty; the header must read " + std::string(kHeader));
  return rows;
}

StatusOr<std::vector<AppliedCommand>> LoadEvents(const std::string& path,
                                                 const fabric_emu::Scenario& scenario,
                                                 const std::string& scenario_dir) {
  StatusOr<std::string> text = ReadCommandLineFile(path, kMaxEventsFileBytes, "an events file",
                                                   "an events file is a CSV file");
  if (!text.ok()) return text.status();
  StatusOr<std::vector<EventRow>> rows = ParseEventsCsv(*text, path);
  if (!rows.ok()) return rows.status();
  StatusOr<topo::Graph> graph = topo::BuildTopology(scenario.topology(), scenario_dir);
  if (!graph.ok()) return Status::Error("topology." + graph.status().message());
  std::vector<AppliedCommand> commands;
  for (EventRow& row : *rows) {
    if (Status s = ValidateCommand(row.applied.command, scenario, *graph); !s.ok()) {
      return Status::Error(path + ":" + std::to_string(row.line) + ": " + s.message());
    }
    commands.push_back(std::move(row.applied));
  }
  return commands;
}

}  // namespace fe::control
