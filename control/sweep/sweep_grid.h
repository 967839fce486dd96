// A sweep's grid: the cartesian product of the `--set PATH=V1,V2,...` lists, the first --set
// varying slowest, and each point's scenario (the base with the point's values written in),
// validated as a whole before anything runs.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "proto/scenario.pb.h"

namespace fe::control {

// At most this many points: each is a run and a directory.
inline constexpr size_t kMaxSweepPoints = 10'000;

// One swept field and the values it takes.
struct SweepAxis {
  std::string path;
  std::vector<std::string> values;
  // The column and directory-name label: the path's last field name, or the whole path when
  // another axis ends with the same name.
  std::string label;
};

// "PATH=V1,V2,...": the values split at commas outside braces and quotes, so that a message
// value in text format ({dcqcn {preset: NVIDIA}}) or a quoted string keeps its own commas.
StatusOr<SweepAxis> ParseSweepAxis(std::string_view arg);

struct SweepPoint {
  size_t index = 0;
  std::vector<std::string> values;  // one per axis, in axis order
  // "point-003-link_rate_gbps=800-kmin_bytes=5120": readable, unique, a plain directory name.
  std::string name;
  fabric_emu::Scenario scenario;  // the base with this point's values, input paths absolute
};

struct SweepGrid {
  std::vector<SweepAxis> axes;  // labelled
  std::vector<SweepPoint> points;
};

// Every point of the grid, each validated. An axis value the field cannot take, or any point the
// validator refuses, refuses the whole grid: every error found, one per line, each naming the
// --set or the point. `scenario_path` is the base file: relative input paths start at its folder
// (and become absolute in each point's scenario, which is run from another folder).
StatusOr<SweepGrid> BuildSweepGrid(const fabric_emu::Scenario& base, std::vector<SweepAxis> axes,
                                   const std::string& scenario_path);

// "link_rate_gbps=800 kmin_bytes=5120": a point's values with their axes' labels.
std::string DescribePoint(std::span<const SweepAxis> axes, const SweepPoint& point);

}  // namespace fe::control
