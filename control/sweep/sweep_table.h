// The few headline figures of every point as an aligned table, for the terminal at the end of a
// sweep: the values swept, flows completed, FCT p99 and makespan in us, slowdown p99, goodput,
// drops and the status, for the first 100 points. sweep.csv holds every figure of every point.
#pragma once

#include <span>
#include <string>

#include "control/sweep/sweep_csv.h"

namespace fe::control {

std::string SweepTable(std::span<const SweepAxis> axes, std::span<const PointRecord> records);

}  // namespace fe::control
