#include "traffic/flow_size_cdf.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <utility>

#include "core/file_text.h"

namespace fe {
namespace {

// Checks point i against its predecessor; returns an empty string when it is acceptable.
std::string PointError(const std::vector<CdfPoint>& points, size_t i) {
  const CdfPoint& p = points[i];
  if (!std::isfinite(p.size_bytes) || p.size_bytes < 0) return "size must be a finite number >= 0";
  if (!std::isfinite(p.cumulative_percent) || p.cumulative_percent < 0 ||
      p.cumulative_percent > 100) {
    return "cumulative percent must be within [0, 100]";
  }
  if (i > 0 && p.size_bytes < points[i - 1].size_bytes) return "size decreases";
  if (i > 0 && p.cumulative_percent < points[i - 1].cumulative_percent) {
    return "cumulative percent decreases";
  }
  return "";
}

std::string LastPointError(const std::vector<CdfPoint>& points) {
  if (points.empty()) return "no points";
  if (points.back().cumulative_percent != 100) return "last cumulative percent must be 100";
  return "";
}

// Parses one non-comment line into a point; false when it is not exactly two numbers.
bool ParseLine(std::string_view line, CdfPoint& point) {
  std::istringstream in{std::string(line)};
  in >> point.size_bytes >> point.cumulative_percent;
  if (in.fail()) return false;
  in >> std::ws;
  return in.eof();
}

}  // namespace

StatusOr<FlowSizeCdf> FlowSizeCdf::Parse(std::string_view text, std::string_view source) {
  std::vector<CdfPoint> points;
  size_t last_line = 0;
  size_t line_number = 0;
  while (!text.empty()) {
    ++line_number;
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    line = line.substr(0, line.find('#'));
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;

    const std::string where = std::string(source) + ":" + std::to_string(line_number) + ": ";
    CdfPoint point;
    if (!ParseLine(line, point)) {
      return Status::Error(where + "expected \"size_bytes cumulative_percent\"");
    }
    points.push_back(point);
    if (std::string e = PointError(points, points.size() - 1); !e.empty()) {
      return Status::Error(where + e);
    }
    last_line = line_number;
  }
  if (std::string e = LastPointError(points); !e.empty()) {
    const std::string where = points.empty() ? "" : ":" + std::to_string(last_line);
    return Status::Error(std::string(source) + where + ": " + e);
  }
  return FlowSizeCdf(std::move(points));
}

StatusOr<FlowSizeCdf> FlowSizeCdf::FromFile(const std::string& path) {
  StatusOr<std::string> text = ReadCappedFile(path, kMaxCdfFileBytes, "a flow-size CDF file", path);
  if (!text.ok()) return text.status();
  return Parse(*text, path);
}

StatusOr<FlowSizeCdf> FlowSizeCdf::FromPoints(std::vector<CdfPoint> points) {
  for (size_t i = 0; i < points.size(); ++i) {
    if (std::string e = PointError(points, i); !e.empty()) {
      return Status::Error("flow-size CDF point " + std::to_string(i) + ": " + e);
    }
  }
  if (std::string e = LastPointError(points); !e.empty()) {
    return Status::Error("flow-size CDF: " + e);
  }
  return FlowSizeCdf(std::move(points));
}

double FlowSizeCdf::MeanBytes() const {
  double mean = points_[0].cumulative_percent / 100 * points_[0].size_bytes;
  for (size_t i = 1; i < points_.size(); ++i) {
    const CdfPoint& a = points_[i - 1];
    const CdfPoint& b = points_[i];
    mean += (b.cumulative_percent - a.cumulative_percent) / 100 * (a.size_bytes + b.size_bytes) / 2;
  }
  return mean;
}

uint64_t FlowSizeCdf::Sample(Random& rng) const {
  // (1 - 2^-53) x 100 still rounds below 100, so u < 100 and the last point lies above it.
  const double u = rng.NextUnitDouble() * 100;
  // The first point whose percent exceeds u; its predecessor (if any) is at or below u.
  const auto it = std::upper_bound(
      points_.begin(), points_.end(), u,
      [](double value, const CdfPoint& p) { return value < p.cumulative_percent; });
  double size_bytes = it->size_bytes;
  if (it != points_.begin()) {
    const CdfPoint& a = *(it - 1);
    const double fraction =
        (u - a.cumulative_percent) / (it->cumulative_percent - a.cumulative_percent);
    size_bytes = a.size_bytes + fraction * (it->size_bytes - a.size_bytes);
  }
  return std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(size_bytes)));
}

}  // namespace fe
