#include "control/report/html/svg_heatmap.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "control/report/html/svg_canvas.h"
#include "control/report/html/svg_text.h"

namespace fe::control::svg {
namespace {

constexpr double kTop = 52;
constexpr double kColorBarRoom = 110;
constexpr double kMaxCellWidth = 40;
constexpr double kMaxCellHeight = 20;
constexpr double kMinCellHeight = 3;
constexpr double kTargetGridHeight = 560;
constexpr double kCharWidth = 6.6;  // of an 11 px label, wide enough for digits and most names
constexpr int kColorBarStripes = 48;

struct Rgb {
  double r, g, b;
};

// ColorBrewer YlOrRd: light yellow for little, dark red for much, readable when printed grey.
constexpr std::array<Rgb, 9> kStops = {{{255, 255, 204},
                                        {255, 237, 160},
                                        {254, 217, 118},
                                        {254, 178, 76},
                                        {253, 141, 60},
                                        {252, 78, 42},
                                        {227, 26, 28},
                                        {189, 0, 38},
                                        {128, 0, 38}}};

size_t MaxChars(const std::vector<std::string>& labels) {
  size_t n = 0;
  for (const std::string& l : labels) n = std::max(n, l.size());
  return n;
}

// Where the grid, its labels and the colour bar go: cells as large as the width allows, up to a
// readable maximum.
struct Layout {
  size_t rows = 0;
  size_t cols = 0;
  double left = 0;       // the grid's left edge, right of the row labels
  double grid_room = 0;  // the width the grid may take
  double cell_w = 0;
  double cell_h = 0;
  double grid_w = 0;
  double grid_h = 0;
  double column_label_w = 0;
  bool upright = false;  // column labels stand upright
  double height = 0;
};

Layout LayOut(const Heatmap& h) {
  Layout l;
  l.rows = h.rows.size();
  l.cols = h.columns.size();
  l.left = std::clamp(14 + kCharWidth * static_cast<double>(MaxChars(h.rows)), 60.0, 180.0);
  l.grid_room = std::max(100.0, h.width_px - l.left - kColorBarRoom);
  l.cell_w = l.cols == 0 ? l.grid_room
                         : std::min(kMaxCellWidth, l.grid_room / static_cast<double>(l.cols));
  l.cell_h = l.rows == 0 ? kMaxCellHeight
                         : std::clamp(kTargetGridHeight / static_cast<double>(l.rows),
                                      kMinCellHeight, kMaxCellHeight);
  l.grid_w = l.cell_w * static_cast<double>(l.cols);
  l.grid_h = std::max(l.cell_h * static_cast<double>(l.rows), 60.0);
  l.column_label_w = kCharWidth * static_cast<double>(MaxChars(h.columns)) + 6;
  // Long column labels stand upright, and the room below the grid grows with them.
  l.upright = l.column_label_w > l.cell_w && l.column_label_w > 18;
  const double below = (l.upright ? l.column_label_w : 14) + 30;
  l.height = kTop + l.grid_h + below;
  return l;
}

void DrawCells(const Heatmap& h, const Layout& l, const Axis& scale, SvgCanvas* c) {
  c->Raw("<g class=\"grid\" data-rows=\"" + std::to_string(l.rows) + "\" data-columns=\"" +
         std::to_string(l.cols) + "\">");
  for (size_t r = 0; r < l.rows; ++r) {
    const double y = kTop + l.cell_h * static_cast<double>(r);
    for (size_t col = 0; col < l.cols; ++col) {
      const double x = l.left + l.cell_w * static_cast<double>(col);
      const size_t i = r * l.cols + col;
      const std::optional<double> v = i < h.cells.size() ? h.cells[i] : std::nullopt;
      if (!v) continue;
      const double f = scale.Shows(*v) ? scale.Fraction(*v) : (*v > scale.hi() ? 1.0 : 0.0);
      const std::string value = ExactNumber(*v);
      c->Rect(x, y, std::max(l.cell_w - 1, 1.0), std::max(l.cell_h - (l.cell_h >= 6 ? 1 : 0), 1.0),
              SequentialColor(f),
              " class=\"cell\" data-row=\"" + Escape(h.rows[r]) + "\" data-column=\"" +
                  Escape(h.columns[col]) + "\" data-value=\"" + value + "\"",
              h.row_title + " " + h.rows[r] + ", " + h.column_title + " " + h.columns[col] + ": " +
                  value + " " + h.value_title);
    }
  }
  c->Raw("</g>");
}

void DrawLabels(const Heatmap& h, const Layout& l, SvgCanvas* c) {
  // Labels every `stride` rows (columns) so that they never overlap.
  const size_t row_stride = static_cast<size_t>(std::ceil(13 / l.cell_h));
  const size_t col_stride = l.upright ? static_cast<size_t>(std::ceil(13 / l.cell_w))
                                      : static_cast<size_t>(std::ceil(l.column_label_w / l.cell_w));
  const TextStyle row_style{
      .size_px = std::min(11.0, std::max(8.0, l.cell_h)), .anchor = Anchor::kEnd, .color = "#333"};
  for (size_t r = 0; r < l.rows; r += row_stride) {
    c->Text(l.left - 5, kTop + l.cell_h * (static_cast<double>(r) + 0.5) + 4, h.rows[r], row_style);
  }
  for (size_t col = 0; col < l.cols; col += col_stride) {
    const double x = l.left + l.cell_w * (static_cast<double>(col) + 0.5);
    if (l.upright) {
      c->Text(x + 4, kTop + l.grid_h + 6, h.columns[col],
              {.size_px = 11, .anchor = Anchor::kEnd, .color = "#333", .rotate_deg = -90});
    } else {
      c->Text(x, kTop + l.grid_h + 15, h.columns[col],
              {.size_px = 11, .anchor = Anchor::kMiddle, .color = "#333"});
    }
  }
  c->Text(l.left + l.grid_w / 2, l.height - 8, h.column_title,
          {.size_px = 12, .anchor = Anchor::kMiddle, .color = "#222"});
  // Above the row labels, as a column heading: beside them it would collide with long names.
  c->Text(l.left - 5, kTop - 5, h.row_title,
          {.size_px = 12, .anchor = Anchor::kEnd, .color = "#222"});
}

// Stripes from the top (most) down, ticks of the fitted scale beside them.
void DrawColorBar(const Heatmap& h, const Layout& l, const Axis& scale, SvgCanvas* c) {
  const double bar_x = l.left + l.grid_w + 24;
  const double bar_h = std::min(l.grid_h, 220.0);
  const double stripe = bar_h / kColorBarStripes;
  c->Raw("<g class=\"colorbar\"" + scale.DataAttributes("") + ">");
  for (int k = 0; k < kColorBarStripes; ++k) {
    const double f = 1 - (k + 0.5) / kColorBarStripes;
    c->Rect(bar_x, kTop + stripe * k, 14, stripe + 0.4, SequentialColor(f));
  }
  for (const Tick& t : scale.ticks()) {
    const double y = kTop + (1 - scale.Fraction(t.value)) * bar_h;
    c->Line(bar_x + 14, y, bar_x + 18, y, "#555", 1);
    c->Text(bar_x + 21, y + 4, t.label, {.size_px = 10, .color = "#333"});
  }
  c->Raw("</g>");
  c->Text(bar_x, kTop + bar_h + 16, h.value_title, {.size_px = 11, .color = "#222"});
}

}  // namespace

std::string SequentialColor(double f) {
  f = std::clamp(std::isfinite(f) ? f : 0.0, 0.0, 1.0);
  const double pos = f * (kStops.size() - 1);
  const size_t i = std::min(static_cast<size_t>(pos), kStops.size() - 2);
  const double t = pos - static_cast<double>(i);
  const auto mix = [&](double a, double b) {
    return static_cast<int>(std::lround(a + (b - a) * t));
  };
  char buf[8];
  std::snprintf(buf, sizeof(buf), "#%02x%02x%02x", mix(kStops[i].r, kStops[i + 1].r),
                mix(kStops[i].g, kStops[i + 1].g), mix(kStops[i].b, kStops[i + 1].b));
  return buf;
}

std::string RenderHeatmap(const Heatmap& h) {
  const size_t rows = h.rows.size(), cols = h.columns.size();
  std::vector<double> values;
  for (size_t i = 0; i < std::min(h.cells.size(), rows * cols); ++i) {
    if (h.cells[i]) values.push_back(*h.cells[i]);
  }
  const Axis scale = Axis::Fit(h.value_scale, values);
  const Layout l = LayOut(h);
  SvgCanvas c(h.width_px, static_cast<int>(std::ceil(l.height)), h.title, "chart heatmap");
  c.Title(l.left, h.title);
  if (!h.note.empty()) c.Note(l.left, h.note);
  DrawCells(h, l, scale, &c);
  DrawLabels(h, l, &c);
  if (values.empty()) {
    c.Empty(l.left + l.grid_room / 2, kTop + 30, "no data");
  }
  DrawColorBar(h, l, scale, &c);
  return c.Finish();
}

}  // namespace fe::control::svg
