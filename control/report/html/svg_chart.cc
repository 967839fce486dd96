#include "control/report/html/svg_chart.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "control/report/html/svg_canvas.h"
#include "control/report/html/svg_text.h"

namespace fe::control::svg {
namespace {

// Room around the plot area: tick labels and the y title on the left, the title and note on
// top, tick labels and the x title below, the legend on the right.
constexpr double kLeft = 78;
constexpr double kRight = 18;
constexpr double kTop = 46;
constexpr double kBottom = 50;
constexpr double kLegendWidth = 190;
constexpr double kLegendRow = 18;
constexpr size_t kLegendMaxChars = 26;
constexpr double kMarkerRadius = 2.5;

const std::string kGrid = "#e4e4e4";

// How a series is drawn.
struct Look {
  std::string color;
  bool dashed = false;
};
const std::string kAxisColor = "#555";

// The plot area in pixels and the two fitted axes.
struct Frame {
  double left, top, width, height;
  Axis x, y;
  double Px(double v) const { return left + x.Fraction(v) * width; }
  double Py(double v) const { return top + (1 - y.Fraction(v)) * height; }
  bool Shows(const Point& p) const { return x.Shows(p.x) && y.Shows(p.y); }
};

std::string Shorten(const std::string& name) {
  if (name.size() <= kLegendMaxChars) return name;
  // Cut at a character boundary: never inside a UTF-8 sequence.
  size_t cut = kLegendMaxChars - 1;
  while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;
  return name.substr(0, cut) + "\u2026";
}

// The points of a long line thinned to the first, lowest, highest and last of each pixel column,
// in their original order.
std::vector<Point> Thin(const std::vector<Point>& points, const Frame& f) {
  if (points.size() <= 4 * static_cast<size_t>(f.width)) return points;
  std::vector<Point> out;
  size_t begin = 0;
  while (begin < points.size()) {
    const long column = std::lround(f.Px(points[begin].x));
    size_t end = begin + 1;
    while (end < points.size() && std::lround(f.Px(points[end].x)) == column) ++end;
    size_t lo = begin, hi = begin;
    for (size_t i = begin; i < end; ++i) {
      if (points[i].y < points[lo].y) lo = i;
      if (points[i].y > points[hi].y) hi = i;
    }
    std::array<size_t, 4> keep = {begin, lo, hi, end - 1};
    std::sort(keep.begin(), keep.end());
    for (size_t k = 0; k < keep.size(); ++k) {
      if (k == 0 || keep[k] != keep[k - 1]) out.push_back(points[keep[k]]);
    }
    begin = end;
  }
  return out;
}

// The path of a line or step series over the points it can show; a point it cannot show breaks
// the line (a gap, not a segment to a wrong place).
std::string PathData(const std::vector<Point>& points, SeriesStyle style, const Frame& f) {
  std::string d;
  bool pen_down = false;
  for (const Point& p : points) {
    if (!f.Shows(p)) {
      pen_down = false;
      continue;
    }
    const double x = f.Px(p.x), y = f.Py(p.y);
    if (!pen_down) {
      d += "M" + Px(x) + " " + Px(y);
      pen_down = true;
    } else if (style == SeriesStyle::kStep) {
      d += "H" + Px(x) + "V" + Px(y);
    } else {
      d += "L" + Px(x) + " " + Px(y);
    }
  }
  return d;
}

void DrawAxes(const XyChart& chart, const Frame& f, SvgCanvas* c) {
  const double bottom = f.top + f.height;
  const double right = f.left + f.width;
  TextStyle tick_style{.size_px = 11, .anchor = Anchor::kMiddle, .color = kAxisColor};
  for (const Tick& t : f.x.ticks()) {
    const double x = f.Px(t.value);
    c->Line(x, f.top, x, bottom, kGrid, 1);
    c->Line(x, bottom, x, bottom + 4, kAxisColor, 1);
    c->Text(x, bottom + 17, t.label, tick_style);
  }
  tick_style.anchor = Anchor::kEnd;
  for (const Tick& t : f.y.ticks()) {
    const double y = f.Py(t.value);
    c->Line(f.left, y, right, y, kGrid, 1);
    c->Line(f.left - 4, y, f.left, y, kAxisColor, 1);
    c->Text(f.left - 7, y + 4, t.label, tick_style);
  }
  c->Line(f.left, bottom, right, bottom, kAxisColor, 1);
  c->Line(f.left, f.top, f.left, bottom, kAxisColor, 1);
  c->Text(f.left + f.width / 2, bottom + 38, chart.x.title,
          {.size_px = 12, .anchor = Anchor::kMiddle, .color = "#222"});
  c->Text(16, f.top + f.height / 2, chart.y.title,
          {.size_px = 12, .anchor = Anchor::kMiddle, .color = "#222", .rotate_deg = -90});
}

void DrawRefLines(const XyChart& chart, const Frame& f, SvgCanvas* c) {
  size_t shown = 0;
  for (const RefLine& r : chart.ref_lines) {
    const bool vertical = r.axis == RefLine::Axis::kX;
    if (!(vertical ? f.x : f.y).Shows(r.value)) continue;
    c->Raw("<g class=\"ref\" data-axis=\"" + std::string(vertical ? "x" : "y") +
           "\" data-value=\"" + ExactNumber(r.value) + "\">");
    if (vertical) {
      const double x = f.Px(r.value);
      c->Line(x, f.top, x, f.top + f.height, "#888", 1, true);
      // Labels step down three rows, so that those of close lines do not print over each other.
      c->Text(x + 3, f.top + 11 + 11 * static_cast<double>(shown % 3), r.label,
              {.size_px = 10, .color = "#666"});
    } else {
      const double y = f.Py(r.value);
      c->Line(f.left, y, f.left + f.width, y, "#888", 1, true);
      c->Text(f.left + f.width - 3, y - 3, r.label,
              {.size_px = 10, .anchor = Anchor::kEnd, .color = "#666"});
    }
    c->Raw("</g>");
    ++shown;
  }
}

// One series: its path (lines, steps) and markers with their exact values. Returns how many of
// its points the axes could not show.
size_t DrawSeries(const Series& s, const Look& look, const Frame& f, SvgCanvas* c) {
  const std::string& color = look.color;
  size_t hidden = 0;
  for (const Point& p : s.points) hidden += f.Shows(p) ? 0 : 1;
  c->Raw("<g class=\"series\" data-series=\"" + Escape(s.name) + "\" data-points=\"" +
         std::to_string(s.points.size()) + "\">");
  const bool scatter = s.style == SeriesStyle::kScatter;
  if (!scatter) {
    const std::string d = PathData(Thin(s.points, f), s.style, f);
    if (!d.empty()) {
      c->Raw("<path d=\"" + d + "\" fill=\"none\" stroke=\"" + Escape(color) +
             "\" stroke-width=\"1.6\" stroke-linejoin=\"round\"" +
             (look.dashed ? " stroke-dasharray=\"5 3\"" : "") + "/>");
    }
  }
  if (scatter || s.points.size() <= kMaxLineMarkers) {
    const std::string opacity = scatter ? "\" fill-opacity=\"0.55"
                                : s.points.size() > kMaxVisibleLineMarkers ? "\" fill-opacity=\"0"
                                                                           : "";
    const std::string prefix = s.name.empty() ? "" : Escape(s.name) + ": ";
    for (const Point& p : s.points) {
      if (!f.Shows(p)) continue;
      const std::string x = ExactNumber(p.x), y = ExactNumber(p.y);
      c->Raw("<circle class=\"point\" cx=\"" + Px(f.Px(p.x)) + "\" cy=\"" + Px(f.Py(p.y)) +
             "\" r=\"" + Px(kMarkerRadius) + "\" fill=\"" + Escape(color) + opacity +
             "\" data-x=\"" + x + "\" data-y=\"" + y + "\"><title>" + prefix + x + ", " + y +
             "</title></circle>");
    }
  }
  c->Raw("</g>");
  return hidden;
}

void DrawLegend(const std::vector<std::pair<const Series*, Look>>& entries, double left, double top,
                SvgCanvas* c) {
  double y = top;
  for (const auto& [s, look] : entries) {
    const std::string& color = look.color;
    c->Raw("<g class=\"legend-entry\">");
    if (s->style == SeriesStyle::kScatter) {
      c->Raw("<circle cx=\"" + Px(left + 9) + "\" cy=\"" + Px(y - 4) + "\" r=\"3.5\" fill=\"" +
             Escape(color) + "\"/>");
    } else {
      c->Line(left, y - 4, left + 18, y - 4, color, 2, look.dashed);
    }
    const std::string shown = Shorten(s->name);
    c->Text(left + 24, y, shown, {.size_px = 11, .color = "#222"});
    if (shown != s->name) c->Raw("<title>" + Escape(s->name) + "</title>");
    c->Raw("</g>");
    y += kLegendRow;
  }
}

std::vector<double> Coordinates(const XyChart& chart, bool x) {
  std::vector<double> v;
  for (const Series& s : chart.series) {
    for (const Point& p : s.points) v.push_back(x ? p.x : p.y);
  }
  return v;
}

}  // namespace

const std::string& PaletteColor(size_t index) {
  static const std::array<std::string, kPaletteSize> kPalette = {
      "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"};
  return kPalette[index % kPalette.size()];
}

std::string RenderXyChart(const XyChart& chart) {
  std::vector<std::pair<const Series*, Look>> legend;
  std::vector<Look> looks;
  size_t next_color = 0;
  for (const Series& s : chart.series) {
    // Past the palette's colours, the colours come round again dashed.
    const bool second_round = s.color.empty() && next_color >= kPaletteSize;
    looks.push_back(
        {s.color.empty() ? PaletteColor(next_color++) : s.color, s.dashed || second_round});
    if (!s.name.empty()) legend.emplace_back(&s, looks.back());
  }
  const double right_room = kRight + (legend.empty() ? 0 : kLegendWidth);
  const double height = std::max<double>(
      chart.height_px, kTop + kBottom + 120 + static_cast<double>(legend.size()) * kLegendRow);
  Frame f{kLeft,
          kTop,
          std::max(120.0, chart.width_px - kLeft - right_room),
          height - kTop - kBottom,
          Axis::Fit(chart.x, Coordinates(chart, true)),
          Axis::Fit(chart.y, Coordinates(chart, false))};
  const int width_px = static_cast<int>(kLeft + f.width + right_room);
  SvgCanvas c(width_px, static_cast<int>(height), chart.title, "chart xy");
  c.Title(kLeft, chart.title);
  DrawAxes(chart, f, &c);
  c.Raw("<g class=\"plot\"" + f.x.DataAttributes("x-") + f.y.DataAttributes("y-") +
        " data-left=\"" + ExactNumber(f.left) + "\" data-top=\"" + ExactNumber(f.top) +
        "\" data-width=\"" + ExactNumber(f.width) + "\" data-height=\"" + ExactNumber(f.height) +
        "\">");
  size_t hidden = 0;
  for (size_t i = 0; i < chart.series.size(); ++i) {
    hidden += DrawSeries(chart.series[i], looks[i], f, &c);
  }
  c.Raw("</g>");
  DrawRefLines(chart, f, &c);
  size_t points = 0;
  for (const Series& s : chart.series) points += s.points.size();
  std::string note = chart.note;
  if (points == 0) {
    c.Empty(f.left + f.width / 2, f.top + f.height / 2, "no data points");
  } else if (hidden > 0) {
    note += std::string(note.empty() ? "" : "; ") + std::to_string(hidden) + " of " +
            std::to_string(points) + " points outside the axes are not shown";
  }
  if (!note.empty()) c.Note(kLeft, note);
  if (!legend.empty()) DrawLegend(legend, f.left + f.width + 14, f.top + 10, &c);
  return c.Finish();
}

Series CdfSeries(std::string name, std::vector<double> values) {
  std::erase_if(values, [](double v) { return !std::isfinite(v); });
  std::sort(values.begin(), values.end());
  Series s;
  s.name = std::move(name);
  s.style = SeriesStyle::kStep;
  const double n = static_cast<double>(values.size());
  for (size_t k = 0; k < values.size(); ++k) {
    s.points.push_back({values[k], static_cast<double>(k + 1) / n});
  }
  return s;
}

}  // namespace fe::control::svg
