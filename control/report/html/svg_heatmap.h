// Heatmaps as inline SVG: a grid of rows by columns (switch by port, link by time), each cell
// coloured by its value on a sequential scale (light to dark: more is darker), with a colour bar.
// Each cell carries data-row, data-column and data-value (ExactNumber) and a hover title.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "control/report/html/svg_axis.h"

namespace fe::control::svg {

struct Heatmap {
  std::string title{};
  std::string note{};          // a line under the title
  std::string row_title{};     // e.g. "switch"
  std::string column_title{};  // e.g. "port"
  std::vector<std::string> rows{};
  std::vector<std::string> columns{};
  // rows.size() x columns.size() values, row after row; nullopt: no such cell (a switch with
  // fewer ports), drawn blank.
  std::vector<std::optional<double>> cells{};
  std::string value_title{};  // the colour bar's title, with its unit
  AxisSpec value_scale;       // the colour range: scale, fixed min/max (the title is value_title)
  int width_px = 880;
};

// The heatmap as one <svg> element. Cells past the end of `cells` are blank. On a log scale a
// value <= 0 takes the lowest colour.
std::string RenderHeatmap(const Heatmap& heatmap);

// The colour of fraction f (0..1) of the sequential scale, "#rrggbb".
std::string SequentialColor(double f);

}  // namespace fe::control::svg
