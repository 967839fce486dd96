// Timelines: the run's failures and commands, and its workload (jobs from summary.json,
// training iterations from jobs.csv, collective operations from collectives.csv).
#include <functional>
#include <map>

#include "control/report/html/csv_reader.h"
#include "control/report/html/report_sections.h"
#include "control/report/html/section_common.h"
#include "control/report/html/svg_text.h"
#include "control/report/html/svg_timeline.h"

namespace fe::control::html {
namespace {

constexpr size_t kMaxEventRows = 200;

double RunEndNs(const ReportInput& in) {
  return NumberOr(Field(in.summary, "simulated_time_ns"), 0);
}

// The whole run, from 0 to its end: where in the run things happened reads at a glance.
svg::AxisSpec RunTimeAxis(const ReportInput& in) {
  svg::AxisSpec axis = TimeAxisUs();
  axis.min = 0.0;
  if (RunEndNs(in) > 0) axis.max = RunEndNs(in);
  return axis;
}

// The row named `name`, added if new.
size_t RowOf(svg::Timeline* t, const std::string& name) {
  for (size_t i = 0; i < t->rows.size(); ++i) {
    if (t->rows[i] == name) return i;
  }
  t->rows.push_back(name);
  return t->rows.size() - 1;
}

struct Columns {
  std::map<std::string, size_t> index;
  size_t operator[](const std::string& name) const { return index.at(name); }
};

StatusOr<Columns> ColumnsOf(const CsvReader& csv, std::initializer_list<const char*> names) {
  Columns c;
  for (const char* name : names) {
    StatusOr<size_t> i = csv.Column(name);
    if (!i.ok()) return i.status();
    c.index[name] = *i;
  }
  return c;
}

// Bars from a CSV with start_ns (empty: not started) and end_ns (empty: not finished) columns,
// one row per `row_of`. Returns how many records had no start: a stopped run leaves those
// without a bar, and the page says how many.
StatusOr<size_t> AddBars(
    const ReportInput& in, const std::string& file, std::initializer_list<const char*> columns,
    const std::function<std::string(const CsvReader&, const Columns&)>& row_of,
    const std::function<std::string(const CsvReader&, const Columns&)>& tooltip_of,
    svg::Timeline* t) {
  StatusOr<CsvReader> csv = CsvReader::Open(in.Path(file));
  if (!csv.ok()) return csv.status();
  StatusOr<Columns> cols = ColumnsOf(*csv, columns);
  if (!cols.ok()) return cols.status();
  size_t not_started = 0;
  while (true) {
    StatusOr<bool> next = csv->Next();
    if (!next.ok()) return next.status();
    if (!*next) break;
    StatusOr<std::optional<double>> start = csv->OptionalNumber((*cols)["start_ns"]);
    if (!start.ok()) return start.status();
    StatusOr<std::optional<double>> end = csv->OptionalNumber((*cols)["end_ns"]);
    if (!end.ok()) return end.status();
    if (!start->has_value()) {
      if (end->has_value()) return csv->Error("column 'end_ns' has a value but 'start_ns' none");
      ++not_started;
      continue;
    }
    const double start_ns = **start;
    const size_t row = RowOf(t, row_of(*csv, *cols));
    t->bars.push_back({.row = row,
                       .start = start_ns,
                       .end = end->value_or(std::max(RunEndNs(in), start_ns)),
                       .tooltip = tooltip_of(*csv, *cols) + (*end ? "" : " (not finished)"),
                       .color = svg::PaletteColor(row),
                       .partial = !end->has_value()});
  }
  return not_started;
}

// "3 iterations (jobs.csv)": what a count of records without a start is of.
std::string NotStarted(size_t count, const char* what, const char* file) {
  return std::to_string(count) + " " + what + (count == 1 ? "" : "s") + " (" + file + ")";
}

// A bar for each job of summary.json that started; returns the jobs' table rows.
std::vector<std::vector<std::string>> AddJobBars(const ReportInput& in, svg::Timeline* t) {
  const Json& jobs = Field(in.summary, "jobs");
  std::vector<std::vector<std::string>> table;
  if (!jobs.is_array()) return table;
  for (const Json& j : jobs) {
    const std::string name = NumberText(Field(j, "name"));
    table.push_back({name, NumberText(Field(j, "kind")), NumberText(Field(j, "messages")),
                     NumberText(Field(j, "messages_completed")), NumberText(Field(j, "bytes")),
                     NumberText(Field(j, "first_start_ns")),
                     NumberText(Field(j, "last_delivery_ns"))});
    const Json& first = Field(j, "first_start_ns");
    const Json& last = Field(j, "last_delivery_ns");
    if (!first.is_number()) continue;
    const size_t row = RowOf(t, "job " + name);
    const double start = first.get<double>();
    t->bars.push_back({.row = row,
                       .start = start,
                       .end = last.is_number() ? last.get<double>() : std::max(RunEndNs(in), start),
                       .tooltip = "job " + name + ": first start " + NumberText(first) +
                                  " ns, last delivery " + NumberText(last) + " ns",
                       .color = "#7f8c99",
                       .partial = !last.is_number()});
  }
  return table;
}

StatusOr<size_t> AddIterationBars(const ReportInput& in, svg::Timeline* t) {
  return AddBars(
      in, "jobs.csv", {"job", "iteration", "start_ns", "end_ns"},
      [](const CsvReader& c, const Columns& k) { return c.Text(k["job"]) + " iterations"; },
      [](const CsvReader& c, const Columns& k) {
        return c.Text(k["job"]) + " iteration " + c.Text(k["iteration"]) + ": " +
               c.Text(k["start_ns"]) + " - " + c.Text(k["end_ns"]) + " ns";
      },
      t);
}

StatusOr<size_t> AddCollectiveBars(const ReportInput& in, svg::Timeline* t) {
  return AddBars(
      in, "collectives.csv",
      {"job", "op", "algorithm", "bytes", "start_ns", "end_ns", "busbw_gbps"},
      [](const CsvReader& c, const Columns& k) { return c.Text(k["job"]) + " " + c.Text(k["op"]); },
      [](const CsvReader& c, const Columns& k) {
        return c.Text(k["job"]) + " " + c.Text(k["op"]) + " (" + c.Text(k["algorithm"]) + ", " +
               c.Text(k["bytes"]) + " B): " + c.Text(k["start_ns"]) + " - " + c.Text(k["end_ns"]) +
               " ns, busbw " + c.Text(k["busbw_gbps"]) + " Gb/s";
      },
      t);
}

}  // namespace

StatusOr<Section> EventsSection(const ReportInput& in) {
  Section section{"events", "Events: failures and commands", ""};
  std::string& body = section.body;
  if (in.events.empty()) {
    body += Absent(
        "No failure and no command in this run. Failures are scheduled in the scenario's "
        "`topology.failure` (links, optical engines and switches going down and up); commands "
        "come from the scenario's `schedule` or the HTTP API, and a run writes each one it "
        "applied to events.csv (`time_ns,source,command`).");
    if (!in.has_events_csv) {
      body += Paragraph("This directory has no events.csv.");
    }
    return section;
  }
  svg::Timeline t;
  t.title = "Failures and commands";
  t.note = "Diamonds: when each happened; bars: from a failure until routes took it in";
  t.time = RunTimeAxis(in);
  for (const RunEvent& e : in.events) {
    const std::string row = e.failure ? "failure " + e.what : "commands (" + e.source + ")";
    const size_t r = RowOf(&t, row);
    const std::string text = (e.failure ? e.source + " " + e.what : e.source + ": " + e.what) +
                             " at " + svg::ExactNumber(e.at_ns) + " ns";
    t.marks.push_back({.row = r, .at = e.at_ns, .tooltip = text});
    if (e.reroute_ns && *e.reroute_ns > e.at_ns) {
      t.bars.push_back(
          {.row = r,
           .start = e.at_ns,
           .end = *e.reroute_ns,
           .tooltip = text + ", rerouted at " + svg::ExactNumber(*e.reroute_ns) + " ns",
           .color = "#d9a3a3"});
    }
  }
  body += Figure(svg::RenderTimeline(t));
  const Json& failures = Field(Field(in.summary, "failures"), "events");
  if (failures.is_array() && !failures.empty()) {
    std::vector<std::vector<std::string>> rows;
    for (const Json& f : failures) {
      rows.push_back({NumberText(Field(f, "at_ns")), NumberText(Field(f, "kind")),
                      NumberText(Field(f, "target")), NumberText(Field(f, "frames_lost")),
                      NumberText(Field(f, "flows_affected")), NumberText(Field(f, "reroute_ns")),
                      NumberText(Field(f, "unreachable_flows"))});
    }
    body += Paragraph("Failures (summary.json `failures.events`):");
    body += Table({"at_ns", "kind", "target", "frames_lost", "flows_affected", "reroute_ns",
                   "unreachable_flows"},
                  rows);
  }
  std::vector<std::vector<std::string>> commands;
  size_t total = 0;
  for (const RunEvent& e : in.events) {
    if (e.failure) continue;
    if (++total <= kMaxEventRows) commands.push_back({svg::ExactNumber(e.at_ns), e.source, e.what});
  }
  if (total > 0) {
    body += Paragraph("Commands (events.csv" +
                      (total > kMaxEventRows ? ", the first " + std::to_string(kMaxEventRows) +
                                                   " of " + std::to_string(total)
                                             : std::string()) +
                      "):");
    body += Table({"time_ns", "source", "command"}, commands, false);
  }
  return section;
}

StatusOr<Section> WorkloadSection(const ReportInput& in) {
  Section section{"workload", "Jobs, iterations and collectives", ""};
  std::string& body = section.body;
  svg::Timeline t;
  t.title = "Workload timeline";
  t.note =
      "Each job from its first start to its last delivery; iterations and collective "
      "operations as they ran; faint: not finished";
  t.time = RunTimeAxis(in);
  const std::vector<std::vector<std::string>> table = AddJobBars(in, &t);
  const bool has_jobs_csv = in.Has("jobs.csv");
  const bool has_collectives = in.Has("collectives.csv");
  std::vector<std::string> not_started;
  if (has_jobs_csv) {
    StatusOr<size_t> s = AddIterationBars(in, &t);
    if (!s.ok()) return s.status();
    if (*s > 0) not_started.push_back(NotStarted(*s, "iteration", "jobs.csv"));
  }
  if (has_collectives) {
    StatusOr<size_t> s = AddCollectiveBars(in, &t);
    if (!s.ok()) return s.status();
    if (*s > 0) not_started.push_back(NotStarted(*s, "collective operation", "collectives.csv"));
  }
  if (!t.bars.empty()) body += Figure(svg::RenderTimeline(t));
  if (!not_started.empty()) {
    std::string list = not_started[0];
    if (not_started.size() > 1) list += " and " + not_started[1];
    body += Paragraph("Not started when the run ended, so not drawn: " + list + ".");
  }
  if (!has_jobs_csv && !has_collectives) {
    body += Absent(
        "No training iterations or collective operations in this run: a "
        "`traffic { training { ... } }` section writes jobs.csv (one row per "
        "iteration) and a `traffic { collective { ... } }` section collectives.csv "
        "(one row per operation); both then show here.");
  }
  body += Paragraph("Jobs (summary.json `jobs`):");
  body += Table({"job", "kind", "messages", "messages_completed", "bytes", "first_start_ns",
                 "last_delivery_ns"},
                table);
  return section;
}

}  // namespace fe::control::html
