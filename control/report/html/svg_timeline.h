// Timelines as inline SVG: labelled rows over a time axis, with bars (an iteration, a collective
// operation, a link down until rerouted) and marks (a command, a failure). Bars carry data-row,
// data-start and data-end, marks data-row and data-at (ExactNumber), both a hover title.
#pragma once

#include <string>
#include <vector>

#include "control/report/html/svg_axis.h"

namespace fe::control::svg {

struct TimelineBar {
  size_t row = 0;
  double start = 0;
  double end = 0;
  std::string tooltip{};
  std::string color{};   // empty: the row's palette colour
  bool partial = false;  // did not end within the run: drawn faint, `end` is where the run ended
};

struct TimelineMark {
  size_t row = 0;
  double at = 0;
  std::string tooltip{};
};

struct Timeline {
  std::string title{};
  std::string note{};
  AxisSpec time{};  // its title carries the unit; label_divisor to show ns in us
  std::vector<std::string> rows{};
  std::vector<TimelineBar> bars{};
  std::vector<TimelineMark> marks{};
  int width_px = 880;
};

std::string RenderTimeline(const Timeline& timeline);

}  // namespace fe::control::svg
