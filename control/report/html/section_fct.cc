// Flow completion: the slowdown CDF of each size bucket and the slowdown against flow size. The
// points are flows.csv's rows; the percentiles are summary.json's slowdown_by_size.
#include <algorithm>
#include <cmath>

#include "control/report/html/csv_reader.h"
#include "control/report/html/report_sections.h"
#include "control/report/html/svg_chart.h"
#include "control/report/html/svg_text.h"

namespace fe::control::html {
namespace {

// Scatter points beyond this are every k-th flow (by flows.csv order), so the page stays light.
constexpr size_t kMaxScatterFlows = 4000;

struct FlowPoint {
  double size_bytes;
  double slowdown;
};

struct Bucket {
  double lower = 0;
  double upper = 0;  // 0: unbounded
  const Json* stats = nullptr;
  std::vector<double> slowdowns;
};

std::string Bytes(double b) { return svg::TickLabel(b, 0) + "B"; }

std::string BucketName(const Bucket& b) {
  if (b.lower == 0) return "< " + Bytes(b.upper);
  if (b.upper == 0) return ">= " + Bytes(b.lower);
  return Bytes(b.lower) + " - " + Bytes(b.upper);
}

// Whether the values span enough to read better on a log axis.
svg::AxisScale ScaleFor(double lo, double hi) {
  return lo > 0 && hi / lo >= 10 ? svg::AxisScale::kLog10 : svg::AxisScale::kLinear;
}

StatusOr<std::vector<Bucket>> BucketsOf(const ReportInput& in) {
  const Json& list = Field(in.summary, "slowdown_by_size");
  std::vector<Bucket> buckets;
  if (list.is_null()) return buckets;
  if (!list.is_array())
    return Status::Error(in.Path("summary.json") + ": slowdown_by_size is not an array");
  for (const Json& b : list) {
    const double lower = NumberOr(Field(b, "lower_bytes"), NAN);
    const double upper = NumberOr(Field(b, "upper_bytes"), NAN);
    if (!std::isfinite(lower) || !std::isfinite(upper)) {
      return Status::Error(in.Path("summary.json") + ": a slowdown_by_size bucket without bounds");
    }
    buckets.push_back({lower, upper, &b, {}});
  }
  return buckets;
}

// The completed flows of flows.csv; returns how many rows it has, completed or not.
StatusOr<size_t> ReadFlows(const ReportInput& in, std::vector<FlowPoint>* flows) {
  StatusOr<CsvReader> csv = CsvReader::Open(in.Path("flows.csv"));
  if (!csv.ok()) return csv.status();
  StatusOr<size_t> size_col = csv->Column("size_bytes");
  StatusOr<size_t> slowdown_col = csv->Column("slowdown");
  if (!size_col.ok()) return size_col.status();
  if (!slowdown_col.ok()) return slowdown_col.status();
  size_t rows = 0;
  while (true) {
    StatusOr<bool> next = csv->Next();
    if (!next.ok()) return next.status();
    if (!*next) break;
    ++rows;
    StatusOr<double> size = csv->Number(*size_col);
    if (!size.ok()) return size.status();
    StatusOr<std::optional<double>> slowdown = csv->OptionalNumber(*slowdown_col);
    if (!slowdown.ok()) return slowdown.status();
    if (*slowdown) flows->push_back({*size, **slowdown});
  }
  return rows;
}

// The span of the completed flows' slowdowns and sizes, which the axes' scales follow.
struct Ranges {
  double lo = INFINITY;
  double hi = -INFINITY;
  double size_lo = INFINITY;
  double size_hi = -INFINITY;
};

Ranges SortIntoBuckets(const std::vector<FlowPoint>& flows, std::vector<Bucket>* buckets) {
  Ranges r;
  for (const FlowPoint& f : flows) {
    r.lo = std::min(r.lo, f.slowdown);
    r.hi = std::max(r.hi, f.slowdown);
    r.size_lo = std::min(r.size_lo, f.size_bytes);
    r.size_hi = std::max(r.size_hi, f.size_bytes);
    // summary.json's buckets: lower_bytes <= size < upper_bytes.
    for (Bucket& b : *buckets) {
      if (f.size_bytes >= b.lower && (b.upper == 0 || f.size_bytes < b.upper)) {
        b.slowdowns.push_back(f.slowdown);
      }
    }
  }
  return r;
}

std::string CdfFigure(const std::vector<FlowPoint>& flows, const std::vector<Bucket>& buckets,
                      const Ranges& r) {
  svg::XyChart cdf;
  cdf.title = "Slowdown CDF by flow size";
  cdf.note = "One step per flow; a curve further left is better";
  cdf.x = {.title = "slowdown (FCT / ideal FCT)", .scale = ScaleFor(r.lo, r.hi)};
  cdf.y = {.title = "fraction of flows", .min = 0.0, .max = 1.0};
  // With flows in one bucket only, "all" would be that bucket's curve drawn twice.
  const size_t filled = std::count_if(buckets.begin(), buckets.end(),
                                      [](const Bucket& b) { return !b.slowdowns.empty(); });
  if (filled != 1) {
    std::vector<double> all;
    for (const FlowPoint& f : flows) all.push_back(f.slowdown);
    cdf.series.push_back(svg::CdfSeries("all (" + std::to_string(all.size()) + ")", all));
    cdf.series.back().color = "#000000";
  }
  for (const Bucket& b : buckets) {
    if (b.slowdowns.empty()) continue;
    cdf.series.push_back(svg::CdfSeries(
        BucketName(b) + " (" + std::to_string(b.slowdowns.size()) + ")", b.slowdowns));
  }
  return Figure(svg::RenderXyChart(cdf));
}

std::string PercentileTable(const ReportInput& in, const std::vector<Bucket>& buckets) {
  // A bucket without flows has no percentiles: summary.json writes null (0 before), the table "-".
  const auto row = [](const std::string& name, const Json& s) {
    const bool empty = NumberOr(Field(s, "count"), 0) == 0;
    std::vector<std::string> r = {name, NumberText(Field(s, "count"))};
    for (const char* key : {"p50", "p95", "p99", "max"}) {
      r.push_back(empty ? "-" : NumberText(Field(s, key)));
    }
    return r;
  };
  std::vector<std::vector<std::string>> table;
  for (const Bucket& b : buckets) table.push_back(row(BucketName(b), *b.stats));
  table.push_back(row("all", Field(in.summary, "slowdown")));
  return Paragraph(
             "Percentiles from summary.json (`slowdown_by_size`, `slowdown`), nearest rank:") +
         Table({"flow size", "flows", "p50", "p95", "p99", "max"}, table);
}

std::string BySizeFigure(const std::vector<FlowPoint>& flows, const std::vector<Bucket>& buckets,
                         const Ranges& r) {
  svg::XyChart by_size;
  by_size.title = "Slowdown against flow size";
  const size_t stride = (flows.size() + kMaxScatterFlows - 1) / kMaxScatterFlows;
  by_size.note = stride > 1 ? "Dots: every " + std::to_string(stride) +
                                  "th completed flow of flows.csv; lines: each bucket's p50 and "
                                  "p99 from summary.json"
                            : "Dots: each completed flow of flows.csv; lines: each bucket's p50 "
                              "and p99 from summary.json";
  by_size.x = {.title = "flow size (bytes)", .scale = ScaleFor(r.size_lo, r.size_hi)};
  by_size.y = {.title = "slowdown (FCT / ideal FCT)", .scale = ScaleFor(r.lo, r.hi)};
  svg::Series dots{.name = "flows", .style = svg::SeriesStyle::kScatter, .color = "#8a8a8a"};
  for (size_t i = 0; i < flows.size(); i += stride) {
    dots.points.push_back({flows[i].size_bytes, flows[i].slowdown});
  }
  by_size.series.push_back(std::move(dots));
  // Each bucket's percentile holds from its lower edge (or the smallest flow) to the next
  // bucket's, the last to the largest flow: a step line over the sizes flows had.
  for (const auto& [key, color, dashed] :
       {std::tuple{"p50", svg::PaletteColor(0), false}, {"p99", svg::PaletteColor(1), true}}) {
    svg::Series line{.name = std::string(key) + " (summary.json)",
                     .style = svg::SeriesStyle::kStep,
                     .color = color,
                     .dashed = dashed};
    double last = NAN;
    for (const Bucket& b : buckets) {
      if (b.slowdowns.empty()) continue;
      last = NumberOr(Field(*b.stats, key), NAN);
      line.points.push_back({std::max(b.lower, r.size_lo), last});
    }
    if (std::isfinite(last) && line.points.back().x < r.size_hi)
      line.points.push_back({r.size_hi, last});
    by_size.series.push_back(std::move(line));
  }
  return Figure(svg::RenderXyChart(by_size));
}

}  // namespace

StatusOr<Section> FctSection(const ReportInput& in) {
  Section section{"fct", "Flow completion (FCT slowdown)", ""};
  if (!in.Has("flows.csv")) {
    section.body = Absent(
        "No flows.csv in this directory: every run writes it; run the scenario "
        "again with `--out` this directory.");
    return section;
  }
  std::vector<FlowPoint> flows;
  StatusOr<size_t> rows = ReadFlows(in, &flows);
  if (!rows.ok()) return rows.status();
  StatusOr<std::vector<Bucket>> buckets = BucketsOf(in);
  if (!buckets.ok()) return buckets.status();
  std::string& body = section.body;
  const size_t incomplete = *rows - flows.size();
  body += Paragraph(
      "Slowdown is a flow's completion time over the time it would take alone on "
      "an idle fabric (1 is ideal). " +
      std::to_string(flows.size()) + " of " + std::to_string(*rows) + " flows completed" +
      (incomplete > 0
           ? "; the other " + std::to_string(incomplete) + " have no slowdown and are not drawn."
           : "."));
  if (flows.empty()) {
    body += Absent(
        "No flow completed, so there is no slowdown to draw: let the run go on "
        "longer (`run.stop_ns`, 0 runs until all traffic completes).");
    return section;
  }
  const Ranges ranges = SortIntoBuckets(flows, &*buckets);
  body += CdfFigure(flows, *buckets, ranges);
  body += PercentileTable(in, *buckets);
  body += BySizeFigure(flows, *buckets, ranges);
  return section;
}

}  // namespace fe::control::html
