// An empirical flow-size distribution given as a piecewise-linear CDF, the format of the
// datacenter workloads used throughout the congestion-control literature (DCTCP WebSearch,
// Facebook Hadoop, as tabulated by the HPCC and ConWeave traffic generators).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/random.h"
#include "core/status.h"

namespace fe {

struct CdfPoint {
  double size_bytes = 0;
  double cumulative_percent = 0;
};

// The distribution the points describe: with probability p_0 the size is x_0, and for each
// following point, with probability p_i - p_{i-1} (in percent) the size is uniform on
// [x_{i-1}, x_i]. Equal sizes on two points therefore make a point mass.
// A CDF file larger than this is refused before it is read: published CDFs have tens of points,
// and 1 MiB holds tens of thousands.
inline constexpr int64_t kMaxCdfFileBytes = int64_t{1} << 20;

class FlowSizeCdf {
 public:
  // Text format: one point per line, "size_bytes cumulative_percent", blank lines and '#'
  // comments allowed. Sizes and percents must be non-decreasing, percents within [0, 100] and the
  // last one exactly 100. Errors read "source:line: reason".
  static StatusOr<FlowSizeCdf> Parse(std::string_view text, std::string_view source);
  // The file at `path`, a regular file of at most kMaxCdfFileBytes.
  static StatusOr<FlowSizeCdf> FromFile(const std::string& path);
  // Same rules as Parse, for points that come from elsewhere; errors name the point index.
  static StatusOr<FlowSizeCdf> FromPoints(std::vector<CdfPoint> points);

  // The exact mean of the distribution above (mid-point of each uniform segment).
  double MeanBytes() const;

  // Inverse-transform sampling with linear interpolation, rounded to the nearest byte and at
  // least 1 byte (a message carries data). One draw from rng per sample.
  uint64_t Sample(Random& rng) const;

  const std::vector<CdfPoint>& points() const { return points_; }

 private:
  explicit FlowSizeCdf(std::vector<CdfPoint> points) : points_(std::move(points)) {}

  std::vector<CdfPoint> points_;
};

}  // namespace fe
