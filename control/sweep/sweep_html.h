// sweep.html: one self-contained page (inline SVG, no script, no network): each headline figure
// against each swept field (sweep_charts.h), then the table of sweep.csv, every number as
// sweep.csv writes it.
#pragma once

#include <span>
#include <string>

#include "control/sweep/sweep_csv.h"

namespace fe::control {

std::string SweepHtml(const std::string& scenario_name, std::span<const SweepAxis> axes,
                      std::span<const PointRecord> records);

}  // namespace fe::control
