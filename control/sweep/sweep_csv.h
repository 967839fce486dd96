// sweep.csv: one row per point, in grid order: the point's number, its value of each swept field
// (a column per --set path), the headline results of its summary.json (headline_results.h),
// its directory (relative to the sweep's) and its status. The bytes depend on the scenario and
// the grid alone: the same sweep writes the same file, resumed or not.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "control/sweep/headline_results.h"
#include "control/sweep/sweep_grid.h"

namespace fe::control {

enum class PointStatus {
  kOk,           // the run finished (this time or, resumed, before)
  kFailed,       // the run ended with an error (its run.log says why)
  kInterrupted,  // a signal stopped the run: its outputs are partial, it runs again on resume
  kNotRun,       // the sweep stopped before its turn
};

const char* PointStatusName(PointStatus status);

struct PointRecord {
  const SweepPoint* point = nullptr;
  PointStatus status = PointStatus::kNotRun;
  // Read from its summary.json when the run finished (ok or failed); empty otherwise.
  std::vector<HeadlineValue> headline;
  bool has_report = false;  // its directory holds a report.html
};

// The headline columns of all records, in the order they first appear.
std::vector<std::string> HeadlineColumns(std::span<const PointRecord> records);

std::string SweepCsv(std::span<const SweepAxis> axes, std::span<const PointRecord> records);

}  // namespace fe::control
