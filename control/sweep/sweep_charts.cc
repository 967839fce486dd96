#include "control/sweep/sweep_charts.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <string>

namespace fe::control {
namespace {

// A field whose values span this ratio or more is drawn on a log10 axis: 100, 400, 1600 Gb/s
// sit evenly apart there.
constexpr double kLogSpan = 8;
// Room either side of the outermost values, as a fraction of the axis, so no marker sits on
// the frame.
constexpr double kPad = 0.06;

// Figures not charted: the number of flows is the scenario's, the same at every point, and
// bytes delivered follows flows_completed.
bool Charted(const std::string& column) {
  return column != "flows_total" && column != "bytes_delivered";
}

std::optional<double> Number(const std::string& text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) {
    return std::nullopt;
  }
  return v;
}

// Where each value of the axis sits on x, and the axis that shows them.
struct XPlacement {
  std::vector<double> x;  // per value, in the axis's order
  svg::AxisSpec spec;
};

XPlacement PlaceX(const SweepAxis& axis) {
  XPlacement p;
  p.spec.title = axis.path;
  bool numeric = true;
  for (const std::string& v : axis.values) {
    const std::optional<double> n = Number(v);
    numeric = numeric && n.has_value();
    p.x.push_back(n.value_or(0));
  }
  if (!numeric) {
    for (size_t i = 0; i < axis.values.size(); ++i) p.x[i] = static_cast<double>(i);
  }
  const auto [lo, hi] = std::ranges::minmax(p.x);
  if (numeric && lo > 0 && hi / lo >= kLogSpan) {
    p.spec.scale = svg::AxisScale::kLog10;
    const double pad = std::pow(hi / lo, kPad);
    p.spec.min = lo / pad;
    p.spec.max = hi * pad;
  } else {
    const double pad = hi > lo ? (hi - lo) * kPad : std::max(std::abs(lo) * kPad, 0.5);
    p.spec.min = lo - pad;
    p.spec.max = hi + pad;
  }
  for (size_t i = 0; i < axis.values.size(); ++i) {
    p.spec.ticks.push_back(svg::Tick{p.x[i], axis.values[i]});
  }
  return p;
}

// "kmin_bytes=5120 pfc=true": the point's values of every axis but `axis`.
std::string OtherValues(std::span<const SweepAxis> axes, const SweepPoint& point, size_t axis) {
  std::string out;
  for (size_t a = 0; a < axes.size(); ++a) {
    if (a == axis) continue;
    out += (out.empty() ? "" : " ") + axes[a].label + "=" + point.values[a];
  }
  return out;
}

}  // namespace

std::vector<svg::XyChart> SweepCharts(std::span<const SweepAxis> axes,
                                      std::span<const PointRecord> records, size_t axis) {
  const XPlacement place = PlaceX(axes[axis]);
  std::vector<svg::XyChart> charts;
  for (const std::string& column : HeadlineColumns(records)) {
    if (!Charted(column)) continue;
    svg::XyChart chart;
    chart.title = column + " against " + axes[axis].label;
    chart.x = place.spec;
    chart.y.title = column;
    chart.y.include_zero = true;
    chart.width_px = 560;
    chart.height_px = 320;
    // One line per combination of the other axes' values, in grid order; along it the points
    // from left to right.
    std::map<std::string, size_t> line_of;
    size_t missing = 0;
    for (const PointRecord& r : records) {
      const auto it = std::ranges::find(r.headline, column, &HeadlineValue::name);
      if (it == r.headline.end()) {
        ++missing;
        continue;
      }
      const std::string name = OtherValues(axes, *r.point, axis);
      auto [line, added] = line_of.emplace(name, chart.series.size());
      if (added) {
        svg::Series s;
        s.name = name;
        s.style = svg::SeriesStyle::kLine;
        chart.series.push_back(std::move(s));
      }
      const size_t value =
          std::ranges::find(axes[axis].values, r.point->values[axis]) - axes[axis].values.begin();
      chart.series[line->second].points.push_back(svg::Point{place.x[value], it->value});
    }
    for (svg::Series& s : chart.series) {
      std::ranges::stable_sort(s.points, {}, &svg::Point::x);
    }
    if (missing > 0) {
      chart.note = std::to_string(missing) + " point" + (missing == 1 ? "" : "s") +
                   " without this figure (not finished) left out";
    }
    charts.push_back(std::move(chart));
  }
  return charts;
}

}  // namespace fe::control
