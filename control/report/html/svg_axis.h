// Chart axes: a data range made into a domain with round ("nice") ticks, linear or log10, and
// the mapping from a data value to a fraction of the axis length.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fe::control::svg {

enum class AxisScale { kLinear, kLog10 };

struct Tick {
  double value = 0;
  std::string label{};
};

// What a chart's caller says of an axis; the rest is fitted to the data.
struct AxisSpec {
  std::string title{};  // with its unit, e.g. "flow size (bytes)"
  AxisScale scale = AxisScale::kLinear;
  // Fixed ends of the domain; unset, the data's, widened to round ticks.
  std::optional<double> min{};
  std::optional<double> max{};
  // A linear axis fitted to the data reaches down (or up) to 0: depths, rates and counts read
  // wrongly from a baseline that is not zero.
  bool include_zero = false;
  // Ticks at these values with these labels instead of computed ones, e.g. category names at
  // 0, 1, 2, ... or the values a sweep ran.
  std::vector<Tick> ticks{};
  // Computed ticks are round, and labelled, in units of value / label_divisor: data in ns on an
  // axis titled in us takes 1000, bit/s in Gb/s 1e9. The data (and data-* attributes) keep
  // their own unit.
  double label_divisor = 1;
};

// An axis fitted to data: its domain [lo, hi] and its ticks, in value order.
class Axis {
 public:
  // `values` are the data on this axis; the non-finite, and on a log axis the non-positive, are
  // left out (the chart leaves those points out too and says how many).
  static Axis Fit(const AxisSpec& spec, const std::vector<double>& values);

  double lo() const { return lo_; }
  double hi() const { return hi_; }
  AxisScale scale() const { return scale_; }
  const std::vector<Tick>& ticks() const { return ticks_; }
  // Whether `value` can be placed on this axis: finite, positive on a log axis, in [lo, hi].
  bool Shows(double value) const;
  // Where `value` falls, 0 at lo and 1 at hi (log10 of both on a log axis).
  double Fraction(double value) const;
  // ` data-<prefix>scale="log10|linear" data-<prefix>lo=".." data-<prefix>hi=".."`: how a page
  // or a test maps pixels back to values.
  std::string DataAttributes(std::string_view prefix) const;

 private:
  double lo_ = 0;
  double hi_ = 1;
  AxisScale scale_ = AxisScale::kLinear;
  std::vector<Tick> ticks_;
};

// Ticks at 1, 2 or 5 times a power of ten, about `target` of them, covering [lo, hi]: the first
// at or below lo and the last at or above hi.
std::vector<double> NiceLinearTicks(double lo, double hi, int target);

// A tick label: SI prefixes (k, M, G, T, P) from 10^4 up, as few decimals as `step` (the
// distance between neighbouring ticks; 0: the value alone) needs: 1.5M, 250k, 0.25, 100G.
std::string TickLabel(double value, double step);

}  // namespace fe::control::svg
