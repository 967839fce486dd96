// XY charts as inline SVG: lines, steps and scatter over linear or log10 axes, with round ticks,
// grid, axis titles, a legend and reference lines. Self-contained markup (presentation
// attributes, no ids, no script, no external font), so any number of charts can sit in one HTML
// page and it opens offline.
//
// Every plotted point can be read back: the plot area carries its domain and pixel box
// (data-x-scale, data-x-lo, data-x-hi, the same for y, and data-left/top/width/height), and each
// marker (class "point") its exact values (data-x, data-y, written by ExactNumber) and a hover
// title. Markers are drawn for every scatter point and for line and step series of at most
// kMaxLineMarkers points.
#pragma once

#include <string>
#include <vector>

#include "control/report/html/svg_axis.h"

namespace fe::control::svg {

struct Point {
  double x = 0;
  double y = 0;
};

enum class SeriesStyle {
  kLine,     // straight segments between points, in the order given
  kStep,     // each y holds until the next point's x (an empirical CDF, a sampled level)
  kScatter,  // markers only
};

struct Series {
  std::string name{};  // in the legend; empty: not in the legend
  SeriesStyle style = SeriesStyle::kLine;
  std::vector<Point> points{};
  std::string color{};  // a CSS colour; empty: the next of the palette
  // To tell apart two series of one colour (p50 and p99 of one bucket); series past the palette
  // are dashed anyway.
  bool dashed = false;
};

// A line across the whole plot at one value of x (an event's time) or y (a threshold).
struct RefLine {
  enum class Axis { kX, kY };
  Axis axis = Axis::kX;
  double value = 0;
  std::string label{};  // drawn beside the line
};

struct XyChart {
  std::string title{};
  std::string note{};  // a line under the title: what the chart leaves out, how to read it
  AxisSpec x{};
  AxisSpec y{};
  std::vector<Series> series{};
  std::vector<RefLine> ref_lines{};
  int width_px = 880;
  int height_px = 380;
};

// Line and step series with more points than this draw no markers (the line shows them);
// those with more than kMaxVisibleLineMarkers draw theirs transparent, there only to be read
// back and hovered.
inline constexpr size_t kMaxLineMarkers = 200;
inline constexpr size_t kMaxVisibleLineMarkers = 40;

// The chart as one <svg> element. Points an axis cannot show (non-finite, non-positive on a log
// axis, outside a fixed min/max) are left out, and the note says how many. A line or step series
// with more than four points per pixel column is thinned to the first, lowest, highest and last
// point of each column: every vertex drawn is still a data point, and no peak is lost.
std::string RenderXyChart(const XyChart& chart);

// The empirical CDF of `values` as a step series: the sorted values, the k-th (from 1) at
// k / n. Non-finite values are dropped first.
Series CdfSeries(std::string name, std::vector<double> values);

// The palette colour of series `index` (Okabe-Ito, readable by the colour-blind), round again
// after kPaletteSize; a chart draws the series of the second round dashed.
inline constexpr size_t kPaletteSize = 7;
const std::string& PaletteColor(size_t index);

}  // namespace fe::control::svg
