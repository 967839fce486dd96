// sweep.html's charts: where each point lands (a numeric field by its value, log10 when it
// spans 8x; any other field by its place in the list), one line per value of the other fields,
// and what is left out.
#include "control/sweep/sweep_charts.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fe::control {
namespace {

struct Sweep {
  std::vector<SweepAxis> axes;
  std::vector<SweepPoint> points;
  std::vector<PointRecord> records;
};

// A grid of rate x cc, the figure fct_p99_ns = 1000 x (point index + 1); point `unfinished`
// (if any) has no figures.
Sweep MakeSweep(std::vector<std::string> rates, int unfinished = -1) {
  Sweep s;
  s.axes = {SweepAxis{"topology.fat_tree.link_rate_gbps", std::move(rates), "link_rate_gbps"},
            SweepAxis{"nic.cc", {"{dcqcn {}}", "{hpcc {}}"}, "cc"}};
  for (const std::string& rate : s.axes[0].values) {
    for (const std::string& cc : s.axes[1].values) {
      SweepPoint p;
      p.index = s.points.size();
      p.values = {rate, cc};
      s.points.push_back(p);
    }
  }
  for (const SweepPoint& p : s.points) {
    PointRecord r;
    r.point = &p;
    r.status = static_cast<int>(p.index) == unfinished ? PointStatus::kNotRun : PointStatus::kOk;
    if (r.status == PointStatus::kOk) {
      const double fct = 1000.0 * static_cast<double>(p.index + 1);
      r.headline = {{"flows_total", "4", 4}, {"fct_p99_ns", std::to_string(fct), fct}};
    }
    s.records.push_back(r);
  }
  return s;
}

TEST(SweepChartsTest, NumericFieldOnItsValuesOneLinePerOtherValue) {
  const Sweep s = MakeSweep({"400", "800", "1600"});
  const std::vector<svg::XyChart> charts = SweepCharts(s.axes, s.records, 0);
  ASSERT_EQ(charts.size(), 1u);  // flows_total is not charted
  const svg::XyChart& c = charts[0];
  EXPECT_EQ(c.title, "fct_p99_ns against link_rate_gbps");
  EXPECT_EQ(c.x.scale, svg::AxisScale::kLinear);  // 1600 / 400 = 4 < 8
  ASSERT_EQ(c.x.ticks.size(), 3u);
  EXPECT_EQ(c.x.ticks[2].value, 1600);
  EXPECT_EQ(c.x.ticks[2].label, "1600");
  ASSERT_EQ(c.series.size(), 2u);
  EXPECT_EQ(c.series[0].name, "cc={dcqcn {}}");
  EXPECT_EQ(c.series[1].name, "cc={hpcc {}}");
  // DCQCN's points are 0, 2, 4 of the grid: fct 1000, 3000, 5000.
  ASSERT_EQ(c.series[0].points.size(), 3u);
  EXPECT_EQ(c.series[0].points[1].x, 800);
  EXPECT_EQ(c.series[0].points[1].y, 3000);
  EXPECT_EQ(c.series[1].points[2].y, 6000);
  EXPECT_TRUE(c.note.empty());
}

TEST(SweepChartsTest, WideNumericFieldIsLogAndListsAreSortedLeftToRight) {
  const Sweep s = MakeSweep({"1600", "100", "400"});  // 16x, given out of order
  const svg::XyChart c = SweepCharts(s.axes, s.records, 0)[0];
  EXPECT_EQ(c.x.scale, svg::AxisScale::kLog10);
  ASSERT_EQ(c.series[0].points.size(), 3u);
  EXPECT_EQ(c.series[0].points[0].x, 100);  // grid point 2
  EXPECT_EQ(c.series[0].points[0].y, 3000);
  EXPECT_EQ(c.series[0].points[2].x, 1600);  // grid point 0
  EXPECT_EQ(c.series[0].points[2].y, 1000);
}

TEST(SweepChartsTest, OtherFieldsSitAtTheirPlaceInTheList) {
  const Sweep s = MakeSweep({"400", "800"}, /*unfinished=*/3);
  const svg::XyChart c = SweepCharts(s.axes, s.records, 1)[0];
  EXPECT_EQ(c.title, "fct_p99_ns against cc");
  ASSERT_EQ(c.x.ticks.size(), 2u);
  EXPECT_EQ(c.x.ticks[0].value, 0);
  EXPECT_EQ(c.x.ticks[1].value, 1);
  EXPECT_EQ(c.x.ticks[1].label, "{hpcc {}}");
  ASSERT_EQ(c.series.size(), 2u);
  EXPECT_EQ(c.series[1].name, "link_rate_gbps=800");
  // Point 3 (800, hpcc) did not finish: its line has one point, and the note says so.
  ASSERT_EQ(c.series[1].points.size(), 1u);
  EXPECT_EQ(c.series[1].points[0].x, 0);
  EXPECT_EQ(c.series[1].points[0].y, 3000);
  EXPECT_EQ(c.note, "1 point without this figure (not finished) left out");
}

}  // namespace
}  // namespace fe::control
