// sweep.html: one self-contained page (no script, no network) with the sweep's table, the rows
// of sweep.csv.
#pragma once

#include <span>
#include <string>

#include "control/sweep/sweep_csv.h"

namespace fe::control {

std::string SweepHtml(const std::string& scenario_name, std::span<const SweepAxis> axes,
                      std::span<const PointRecord> records);

}  // namespace fe::control
