// What several report sections share: the time axis, the event lines drawn over time charts,
// the order of switch names, and reading the top few series of a long sampled CSV.
#pragma once

#include <string>
#include <vector>

#include "control/report/html/report_input.h"
#include "control/report/html/svg_chart.h"

namespace fe::control::html {

// Times are ns in every output; axes show them in us.
svg::AxisSpec TimeAxisUs();

// The run's events as vertical lines for a time chart (at most kMaxEventLines, the earliest).
inline constexpr size_t kMaxEventLines = 12;
std::vector<svg::RefLine> EventLines(const ReportInput& in);

// "edge2" before "edge10": digit runs compare as numbers.
bool NaturalLess(const std::string& a, const std::string& b);

// A series of a sampled CSV (queues.csv, rates.csv): the key columns' values joined, its samples
// (time_ns, value) in file order, and its extremes.
struct SampledSeries {
  std::vector<std::string> key;
  std::vector<svg::Point> points;
  double max = 0;
  double min = 0;
};

struct TopSeries {
  std::vector<SampledSeries> series;  // the chosen, best first
  size_t total = 0;                   // series in the file
  size_t rows = 0;                    // records in the file
};

// Reads `path` twice: once to rank every series (rows sharing the `key_columns` values) by its
// highest `value_column` (highest first) or, with `lowest`, by its lowest (lowest first), ties
// in key order; then to collect the samples of the first `count`.
StatusOr<TopSeries> ReadTopSeries(const std::string& path,
                                  const std::vector<std::string>& key_columns,
                                  const std::string& value_column, size_t count, bool lowest);

}  // namespace fe::control::html
