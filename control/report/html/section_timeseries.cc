// Sampled series over time: queue depths (queues.csv) and congestion-control rates (rates.csv),
// a few of the most telling of each, every sample of those as the file has it.
#include <algorithm>
#include <map>

#include "control/report/html/report_sections.h"
#include "control/report/html/section_common.h"
#include "control/report/html/svg_chart.h"
#include "control/report/html/svg_text.h"

namespace fe::control::html {
namespace {

constexpr size_t kQueuesShown = 8;
constexpr size_t kFlowsShown = 8;

std::string QueueName(const std::vector<std::string>& key) {
  return key[0] + " port " + key[1] + " q" + key[2];
}

// summary.json's switch_queues entry of (switch, port, queue), or null.
const Json* QueueSummary(const ReportInput& in, const std::vector<std::string>& key) {
  const Json& list = Field(in.summary, "switch_queues");
  if (!list.is_array()) return nullptr;
  for (const Json& q : list) {
    const Json& sw = Field(q, "switch");
    if (sw.is_string() && sw.get<std::string>() == key[0] &&
        NumberText(Field(q, "port")) == key[1] && NumberText(Field(q, "queue")) == key[2]) {
      return &q;
    }
  }
  return nullptr;
}

std::string DropsText(const Json& drops) {
  if (!drops.is_object() || drops.empty()) return "0";
  std::string out;
  for (const auto& [reason, n] : drops.items()) {
    out += (out.empty() ? "" : ", ") + reason + " " + NumberText(n);
  }
  return out;
}

}  // namespace

StatusOr<Section> QueuesSection(const ReportInput& in) {
  Section section{"queues", "Queue depth over time", ""};
  if (!in.Has("queues.csv")) {
    section.body = Absent(
        "This run sampled no queue depths. Set `run.queue_sample_interval_ns` in the scenario "
        "(e.g. `run { queue_sample_interval_ns: 1000 }`) and the run writes queues.csv: every "
        "interval, the depth of each switch egress queue that has held a packet.");
    return section;
  }
  StatusOr<TopSeries> top = ReadTopSeries(in.Path("queues.csv"), {"switch", "port", "queue"},
                                          "depth_bytes", kQueuesShown, false);
  if (!top.ok()) return top.status();
  std::string& body = section.body;
  if (top->series.empty()) {
    body += Absent(
        "queues.csv has no samples: no switch queue held a packet before the first "
        "sample. A shorter `run.queue_sample_interval_ns` samples sooner.");
    return section;
  }
  body += Paragraph(
      "The " + std::to_string(top->series.size()) + " of " + std::to_string(top->total) +
      " sampled queues with the highest sampled depth, every sample of "
      "queues.csv (" +
      std::to_string(top->rows) + " rows); dashed lines mark the run's failures and commands.");
  svg::XyChart chart;
  chart.title = "Depth of the busiest queues";
  chart.x = TimeAxisUs();
  chart.y = {.title = "queue depth (bytes)", .include_zero = true};
  chart.ref_lines = EventLines(in);
  std::vector<std::vector<std::string>> table;
  for (const SampledSeries& s : top->series) {
    chart.series.push_back(
        {.name = QueueName(s.key), .style = svg::SeriesStyle::kStep, .points = s.points});
    const Json* q = QueueSummary(in, s.key);
    table.push_back({QueueName(s.key), std::to_string(s.points.size()), svg::ExactNumber(s.max),
                     q ? NumberText(Field(*q, "max_depth_bytes")) : "-",
                     q ? NumberText(Field(*q, "mean_depth_bytes")) : "-",
                     q ? NumberText(Field(*q, "ecn_marks")) : "-",
                     q ? DropsText(Field(*q, "drops")) : "-",
                     q ? NumberText(Field(*q, "paused_time_ns")) : "-"});
  }
  body += Figure(svg::RenderXyChart(chart));
  body += Paragraph(
      "Sampled from queues.csv, then over the whole run from summary.json "
      "(`switch_queues`): the true maximum can exceed the sampled one.");
  body += Table({"queue", "samples", "max sampled (B)", "max_depth_bytes", "mean_depth_bytes",
                 "ecn_marks", "drops", "paused_time_ns"},
                table);
  return section;
}

StatusOr<Section> RatesSection(const ReportInput& in) {
  Section section{"rates", "Congestion-control rates", ""};
  if (!in.Has("rates.csv")) {
    section.body = Absent(
        "This run sampled no rates. Set `run.rate_sample_interval_ns` in the scenario (e.g. "
        "`run { rate_sample_interval_ns: 1000 }`) and the run writes rates.csv: every interval, "
        "the congestion-control rate of each sending queue pair.");
    return section;
  }
  StatusOr<TopSeries> top =
      ReadTopSeries(in.Path("rates.csv"), {"flow"}, "rate_bps", kFlowsShown, true);
  if (!top.ok()) return top.status();
  std::string& body = section.body;
  if (top->series.empty()) {
    body += Absent(
        "rates.csv has no samples: no flow was sending at a sample time. A shorter "
        "`run.rate_sample_interval_ns` samples more often.");
    return section;
  }
  body +=
      Paragraph("The " + std::to_string(top->series.size()) + " of " + std::to_string(top->total) +
                " sampled flows whose rate fell lowest, every sample of rates.csv (" +
                std::to_string(top->rows) +
                " rows). A flow's line ends when it completes; DCQCN cuts the rate on each "
                "CNP and recovers it in steps.");
  svg::XyChart chart;
  chart.title = "Rates of the most throttled flows";
  chart.x = TimeAxisUs();
  chart.y = {.title = "rate (Gb/s)", .include_zero = true, .label_divisor = 1e9};
  chart.ref_lines = EventLines(in);
  std::vector<std::vector<std::string>> table;
  for (const SampledSeries& s : top->series) {
    chart.series.push_back(
        {.name = "flow " + s.key[0], .style = svg::SeriesStyle::kStep, .points = s.points});
    table.push_back({s.key[0], std::to_string(s.points.size()), svg::ExactNumber(s.min),
                     svg::ExactNumber(s.max)});
  }
  body += Figure(svg::RenderXyChart(chart));
  if (std::all_of(top->series.begin(), top->series.end(),
                  [](const SampledSeries& s) { return s.min == s.max; })) {
    body += Paragraph(
        "None of these flows' sampled rates changed. Without "
        "congestion control (`nic.cc` unset) each sends at its line rate; with "
        "DCQCN or HPCC, rates move once queues mark packets.");
  }
  body += Table({"flow", "samples", "lowest rate_bps", "highest rate_bps"}, table);
  return section;
}

}  // namespace fe::control::html
