#include "control/report/html/svg_timeline.h"

#include <algorithm>

#include "control/report/html/svg_canvas.h"
#include "control/report/html/svg_chart.h"
#include "control/report/html/svg_text.h"

namespace fe::control::svg {
namespace {

constexpr double kTop = 46;
constexpr double kRight = 24;
constexpr double kRowHeight = 22;
constexpr double kCharWidth = 6.6;

}  // namespace

std::string RenderTimeline(const Timeline& t) {
  std::vector<double> times;
  for (const TimelineBar& b : t.bars) times.insert(times.end(), {b.start, b.end});
  for (const TimelineMark& m : t.marks) times.push_back(m.at);
  const Axis axis = Axis::Fit(t.time, times);
  size_t longest = 0;
  for (const std::string& r : t.rows) longest = std::max(longest, r.size());
  const double left = std::clamp(16 + kCharWidth * static_cast<double>(longest), 70.0, 230.0);
  const double plot_w = std::max(120.0, t.width_px - left - kRight);
  const double plot_h = kRowHeight * static_cast<double>(std::max<size_t>(t.rows.size(), 1));
  const double height = kTop + plot_h + 52;
  SvgCanvas c(t.width_px, static_cast<int>(height), t.title, "chart timeline");
  c.Title(left, t.title);
  if (!t.note.empty()) c.Note(left, t.note);
  const auto x_of = [&](double v) { return left + axis.Fraction(v) * plot_w; };
  const double bottom = kTop + plot_h;
  for (const Tick& tick : axis.ticks()) {
    const double x = x_of(tick.value);
    c.Line(x, kTop, x, bottom, "#e4e4e4", 1);
    c.Line(x, bottom, x, bottom + 4, "#555", 1);
    c.Text(x, bottom + 17, tick.label, {.size_px = 11, .anchor = Anchor::kMiddle, .color = "#555"});
  }
  c.Line(left, bottom, left + plot_w, bottom, "#555", 1);
  c.Text(left + plot_w / 2, bottom + 38, t.time.title,
         {.size_px = 12, .anchor = Anchor::kMiddle, .color = "#222"});
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const double y = kTop + kRowHeight * static_cast<double>(r);
    if (r % 2 == 1) c.Rect(left, y, plot_w, kRowHeight, "#f7f7f7");
    c.Text(left - 6, y + kRowHeight / 2 + 4, t.rows[r],
           {.size_px = 11, .anchor = Anchor::kEnd, .color = "#333"});
  }
  for (const TimelineBar& b : t.bars) {
    if (b.row >= t.rows.size()) continue;
    const double lo = std::clamp(b.start, axis.lo(), axis.hi());
    const double hi = std::clamp(b.end, axis.lo(), axis.hi());
    const double x0 = x_of(lo), x1 = x_of(hi);
    const double y = kTop + kRowHeight * static_cast<double>(b.row) + 4;
    const std::string fill = b.color.empty() ? PaletteColor(b.row) : b.color;
    c.Rect(x0, y, std::max(x1 - x0, 1.0), kRowHeight - 8, fill,
           " class=\"bar\" stroke=\"#fff\" stroke-width=\"0.5\"" +
               std::string(b.partial ? " fill-opacity=\"0.35\"" : "") + " data-row=\"" +
               std::to_string(b.row) + "\" data-start=\"" + ExactNumber(b.start) +
               "\" data-end=\"" + ExactNumber(b.end) + "\"",
           b.tooltip);
  }
  for (const TimelineMark& m : t.marks) {
    if (m.row >= t.rows.size() || !axis.Shows(m.at)) continue;
    const double x = x_of(m.at);
    const double y = kTop + kRowHeight * (static_cast<double>(m.row) + 0.5);
    // A diamond: it reads as an instant, where a bar reads as a span.
    c.Raw("<path class=\"mark\" d=\"M" + Px(x) + " " + Px(y - 6) + "L" + Px(x + 5) + " " + Px(y) +
          "L" + Px(x) + " " + Px(y + 6) + "L" + Px(x - 5) + " " + Px(y) +
          "Z\" fill=\"#333\" data-row=\"" + std::to_string(m.row) + "\" data-at=\"" +
          ExactNumber(m.at) + "\"><title>" + Escape(m.tooltip) + "</title></path>");
  }
  if (t.bars.empty() && t.marks.empty()) {
    c.Empty(left + plot_w / 2, kTop + plot_h / 2 + 4, "nothing to show");
  }
  return c.Finish();
}

}  // namespace fe::control::svg
