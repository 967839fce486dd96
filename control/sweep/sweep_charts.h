// sweep.html's charts: for each swept field, each headline figure (y) against the field's values
// (x), one line per combination of the other fields' values, drawn with the report's SVG chart
// module. Points whose run did not finish are left out.
#pragma once

#include <span>
#include <vector>

#include "control/report/html/svg_chart.h"
#include "control/sweep/sweep_csv.h"

namespace fe::control {

// The charts against axes[axis], in the order of sweep.csv's columns. A field whose values are
// all numbers has a numeric x axis (log10 when they span 8x or more), any other (enums,
// messages) one place per value, in the order given; either way a tick at each value swept.
std::vector<svg::XyChart> SweepCharts(std::span<const SweepAxis> axes,
                                      std::span<const PointRecord> records, size_t axis);

}  // namespace fe::control
