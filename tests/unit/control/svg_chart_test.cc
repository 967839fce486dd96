// The SVG chart module (control/report/html/svg_*.h): text escaping that no input can break out
// of, numbers that read back exactly, round ticks, and points placed where their axes say. The
// expected pixels are computed here from the plot box the chart declares, by the linear or log10
// map an axis is by definition; a tenth of a pixel of tolerance is the coordinates' printed
// precision.
#include <cmath>
#include <cstdlib>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "control/report/html/svg_axis.h"
#include "control/report/html/svg_chart.h"
#include "control/report/html/svg_heatmap.h"
#include "control/report/html/svg_text.h"
#include "control/report/html/svg_timeline.h"

namespace fe::control::svg {
namespace {

// The attributes of every element named `tag` in `svg` (of class `css_class` if given), in
// document order.
std::vector<std::map<std::string, std::string>> Elements(const std::string& svg,
                                                         const std::string& tag,
                                                         const std::string& css_class = "") {
  std::vector<std::map<std::string, std::string>> out;
  const std::regex element("<" + tag + "\\b([^>]*)>");
  const std::regex attribute("([a-z-]+)=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), element);
       it != std::sregex_iterator(); ++it) {
    std::map<std::string, std::string> attrs;
    const std::string body = (*it)[1];
    for (auto a = std::sregex_iterator(body.begin(), body.end(), attribute);
         a != std::sregex_iterator(); ++a) {
      attrs[(*a)[1]] = (*a)[2];
    }
    if (css_class.empty() || attrs["class"] == css_class) out.push_back(attrs);
  }
  return out;
}

double Num(const std::map<std::string, std::string>& attrs, const std::string& name) {
  EXPECT_TRUE(attrs.contains(name)) << name;
  return attrs.contains(name) ? std::strtod(attrs.at(name).c_str(), nullptr) : NAN;
}

TEST(SvgText, EscapesMarkupCharacters) {
  EXPECT_EQ(Escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(Escape("</svg><script>"), "&lt;/svg&gt;&lt;script&gt;");
}

TEST(SvgText, ReplacesWhatXmlCannotHold) {
  // Valid UTF-8 passes (é, €, 😀); a stray continuation byte, an overlong '/', a surrogate, a
  // truncated sequence and a control character become U+FFFD each (per byte for the invalid).
  EXPECT_EQ(Escape("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"), "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(Escape("\x80"), r);
  EXPECT_EQ(Escape("\xC0\xAF"), r + r);
  EXPECT_EQ(Escape("\xED\xA0\x80"), r + r + r);
  EXPECT_EQ(Escape("a\xE2\x82"), "a" + r + r);
  EXPECT_EQ(Escape(std::string("x\x01y\0z", 5)), "x" + r + "y" + r + "z");
  EXPECT_EQ(Escape("tab\there\nnl"), "tab\there\nnl");
}

TEST(SvgText, NumbersReadBackExactly) {
  for (const double v : {0.1, 94846.56, 1.0 / 3, 1e300, -2.5e-9, 1048576.0}) {
    EXPECT_EQ(std::strtod(ExactNumber(v).c_str(), nullptr), v) << ExactNumber(v);
  }
  EXPECT_EQ(ExactNumber(94846.560), "94846.56");
  // Fixed notation, as the CSVs write numbers, not 1e+11.
  EXPECT_EQ(ExactNumber(100000000000.0), "100000000000");
  EXPECT_EQ(ExactNumber(2.5e-9), "2.5e-09");
  EXPECT_EQ(ExactNumber(NAN), "NaN");
  EXPECT_EQ(Px(-0.04), "0.0");
  EXPECT_EQ(Px(12.349), "12.3");
}

TEST(SvgAxis, LinearTicksAreRoundAndCoverTheData) {
  // 97 / 5 intervals = 19.4, rounded up to a step of 2 x 10^1.
  EXPECT_EQ(NiceLinearTicks(0, 97, 6), (std::vector<double>{0, 20, 40, 60, 80, 100}));
  // 0.33 / 5 = 0.066 -> step 0.05, from 1.10 down to 1.40 up.
  const std::vector<double> t = NiceLinearTicks(1.12, 1.45, 6);
  ASSERT_EQ(t.size(), 8u);
  EXPECT_NEAR(t.front(), 1.10, 1e-12);
  EXPECT_NEAR(t.back(), 1.45, 1e-12);
}

TEST(SvgAxis, TickLabelsUseSiPrefixes) {
  EXPECT_EQ(TickLabel(1.5e6, 5e5), "1.5M");
  EXPECT_EQ(TickLabel(250000, 50000), "250k");
  EXPECT_EQ(TickLabel(1e11, 2e10), "100G");
  EXPECT_EQ(TickLabel(0.25, 0.05), "0.25");
  EXPECT_EQ(TickLabel(4000, 1000), "4000");
  EXPECT_EQ(TickLabel(0, 0.2), "0");
  EXPECT_EQ(TickLabel(0, 5e5), "0");  // not "0k"
}

TEST(SvgAxis, LogAxisSpansWholeDecades) {
  const Axis a = Axis::Fit({.scale = AxisScale::kLog10}, {1.2, 340, 0, -5, NAN});
  EXPECT_EQ(a.lo(), 1);
  EXPECT_EQ(a.hi(), 1000);
  std::vector<std::string> labels;
  for (const Tick& t : a.ticks()) labels.push_back(t.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"1", "10", "100", "1000"}));
  EXPECT_DOUBLE_EQ(a.Fraction(10), 1.0 / 3);
  EXPECT_FALSE(a.Shows(0));
}

TEST(SvgAxis, TicksAreRoundInTheLabelUnit) {
  // 273015 ns shown in us: round steps of 50 us, the domain 0 .. 300 us, the values in ns.
  const Axis a = Axis::Fit({.label_divisor = 1000}, {0, 273015});
  EXPECT_EQ(a.lo(), 0);
  EXPECT_EQ(a.hi(), 300000);
  ASSERT_EQ(a.ticks().size(), 7u);
  EXPECT_EQ(a.ticks()[1].value, 50000);
  EXPECT_EQ(a.ticks()[1].label, "50");
  EXPECT_EQ(a.ticks()[0].label, "0");
}

TEST(SvgAxis, IncludeZeroAndFixedEnds) {
  const Axis a = Axis::Fit({.include_zero = true}, {300, 900});
  EXPECT_EQ(a.lo(), 0);
  EXPECT_EQ(a.hi(), 1000);
  const Axis b = Axis::Fit({.min = 0.0, .max = 1.0}, {0.5, 3});
  EXPECT_EQ(b.lo(), 0);
  EXPECT_EQ(b.hi(), 1);
  EXPECT_FALSE(b.Shows(3));
}

TEST(SvgChart, PointsSitWhereTheAxesPutThem) {
  XyChart chart;
  chart.title = "t";
  chart.x = {.title = "size (bytes)", .scale = AxisScale::kLog10};
  chart.y = {.title = "slowdown", .min = 0.0, .max = 4.0};
  Series s{.name = "flows", .style = SeriesStyle::kScatter};
  s.points = {{1000, 1}, {1e5, 2.5}, {1e6, 3.75}, {0, 1}, {1e4, 9}};
  chart.series.push_back(s);
  const std::string svg = RenderXyChart(chart);
  const auto plots = Elements(svg, "g", "plot");
  ASSERT_EQ(plots.size(), 1u);
  const auto& p = plots[0];
  EXPECT_EQ(p.at("data-x-scale"), "log10");
  EXPECT_EQ(Num(p, "data-x-lo"), 1000);  // the decades around 1000 .. 1e6
  EXPECT_EQ(Num(p, "data-x-hi"), 1e6);
  const auto circles = Elements(svg, "circle", "point");
  // x = 0 cannot sit on a log axis and y = 9 is past the fixed max: two points left out.
  ASSERT_EQ(circles.size(), 3u);
  EXPECT_NE(svg.find("2 of 5 points outside the axes are not shown"), std::string::npos);
  for (const auto& c : circles) {
    const double x = Num(c, "data-x"), y = Num(c, "data-y");
    const double px = Num(p, "data-left") + (std::log10(x) - 3) / 3 * Num(p, "data-width");
    const double py = Num(p, "data-top") + (1 - y / 4) * Num(p, "data-height");
    EXPECT_NEAR(Num(c, "cx"), px, 0.05 + 1e-9) << x;
    EXPECT_NEAR(Num(c, "cy"), py, 0.05 + 1e-9) << y;
  }
}

TEST(SvgChart, CdfStepsUpOneNthAtEachValue) {
  const Series s = CdfSeries("c", {3, 1, NAN, 2});
  ASSERT_EQ(s.points.size(), 3u);
  EXPECT_EQ(s.points[0].x, 1);
  EXPECT_DOUBLE_EQ(s.points[0].y, 1.0 / 3);
  EXPECT_EQ(s.points[2].x, 3);
  EXPECT_EQ(s.points[2].y, 1);
  EXPECT_EQ(s.style, SeriesStyle::kStep);
}

TEST(SvgChart, ThinningKeepsEveryPeak) {
  // 20000 samples of zero with one spike of 7 at sample 12345: far more than four per pixel
  // column, so the line is thinned, yet its highest vertex is the spike's pixel row, the top.
  XyChart chart;
  chart.y = {.min = 0.0, .max = 7.0};
  Series s;
  for (int i = 0; i < 20000; ++i)
    s.points.push_back({static_cast<double>(i), i == 12345 ? 7.0 : 0});
  chart.series.push_back(s);
  const std::string svg = RenderXyChart(chart);
  const auto paths = Elements(svg, "path");
  ASSERT_EQ(paths.size(), 1u);
  const std::string d = paths[0].at("d");
  const auto plot = Elements(svg, "g", "plot")[0];
  const size_t vertices = std::count(d.begin(), d.end(), 'L') + 1;
  EXPECT_LE(vertices, 4 * (Num(plot, "data-width") + 1));
  EXPECT_NE(d.find(" " + Px(Num(plot, "data-top"))), std::string::npos) << "no vertex at the top";
}

TEST(SvgChart, ColoursComeRoundAgainDashed) {
  // Nine series on a seven-colour palette: the eighth and ninth take the first two colours,
  // dashed, so that no two series look alike.
  XyChart chart;
  for (int i = 0; i < 9; ++i) {
    chart.series.push_back(
        {.name = "s" + std::to_string(i), .points = {{0, 1.0 * i}, {1, 1.0 * i}}});
  }
  const auto paths = Elements(RenderXyChart(chart), "path");
  ASSERT_EQ(paths.size(), 9u);
  for (size_t i = 0; i < 9; ++i) {
    EXPECT_EQ(paths[i].at("stroke"), PaletteColor(i % kPaletteSize)) << i;
    EXPECT_EQ(paths[i].contains("stroke-dasharray"), i >= kPaletteSize) << i;
  }
  EXPECT_EQ(paths[7].at("stroke"), paths[0].at("stroke"));
}

TEST(SvgChart, EscapesNamesAndTitles) {
  XyChart chart;
  chart.title = "<script>alert(1)</script>";
  chart.series.push_back({.name = "a\"b&c", .points = {{1, 1}}});
  const std::string svg = RenderXyChart(chart);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_NE(svg.find("data-series=\"a&quot;b&amp;c\""), std::string::npos);
}

TEST(SvgHeatmap, CellsCarryTheirValuesAndTheScaleEnds) {
  Heatmap h;
  h.rows = {"edge0", "edge1"};
  h.columns = {"0", "1", "2"};
  h.cells = {0.0, 50.0, 100.0, std::nullopt, 25.0, 75.0};
  h.value_title = "paused (ns)";
  const std::string svg = RenderHeatmap(h);
  const auto cells = Elements(svg, "rect");
  std::vector<std::map<std::string, std::string>> data;
  for (const auto& c : cells) {
    if (c.contains("data-value")) data.push_back(c);
  }
  ASSERT_EQ(data.size(), 5u);  // the missing cell is not drawn
  EXPECT_EQ(data[0].at("data-row"), "edge0");
  EXPECT_EQ(data[0].at("fill"), SequentialColor(0));
  EXPECT_EQ(data[2].at("fill"), SequentialColor(1));
  EXPECT_EQ(data[3].at("data-column"), "1");
  EXPECT_EQ(Num(data[3], "data-value"), 25);
  // The scale's ends are the ColorBrewer YlOrRd ends.
  EXPECT_EQ(SequentialColor(0), "#ffffcc");
  EXPECT_EQ(SequentialColor(1), "#800026");
}

TEST(SvgTimeline, BarsAndMarksSitOnTheTimeAxis) {
  // A fixed axis of 0 .. 1000 ns: a bar from 250 to 750 spans the middle half of the plot, the
  // mark at 500 sits at its centre, the bar past the end is clipped to it.
  Timeline t;
  t.time = {.min = 0.0, .max = 1000.0};
  t.rows = {"job a", "failure x"};
  t.bars = {{.row = 0, .start = 250, .end = 750}, {.row = 0, .start = 900, .end = 2000}};
  t.marks = {{.row = 1, .at = 500, .tooltip = "link_down x"}};
  const std::string svg = RenderTimeline(t);
  const auto bars = Elements(svg, "rect", "bar");
  ASSERT_EQ(bars.size(), 2u);
  EXPECT_EQ(Num(bars[0], "data-start"), 250);
  EXPECT_EQ(Num(bars[0], "data-end"), 750);
  const double x0 = Num(bars[0], "x"), w = Num(bars[0], "width");
  const double right = Num(bars[1], "x") + Num(bars[1], "width");
  const double left = x0 - w / 2;  // 250 is a quarter in, the bar half the plot wide
  EXPECT_NEAR(right - left, 2 * w, 0.15);
  const auto marks = Elements(svg, "path", "mark");
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(Num(marks[0], "data-at"), 500);
  // The diamond's first vertex is straight above the mark's time.
  EXPECT_NEAR(std::strtod(marks[0].at("d").c_str() + 1, nullptr), x0 + w / 2, 0.15);
}

}  // namespace
}  // namespace fe::control::svg
