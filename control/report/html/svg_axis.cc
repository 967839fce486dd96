#include "control/report/html/svg_axis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "control/report/html/svg_text.h"

namespace fe::control::svg {
namespace {

constexpr int kTargetTicks = 6;

bool Usable(double v, AxisScale scale) {
  return std::isfinite(v) && (scale == AxisScale::kLinear || v > 0);
}

double Transform(double v, AxisScale scale) {
  return scale == AxisScale::kLog10 ? std::log10(v) : v;
}

// Decades 10^lo_exp .. 10^hi_exp, with 2x and 5x between them when there are few decades.
std::vector<double> LogTicks(int lo_exp, int hi_exp) {
  std::vector<double> ticks;
  const bool fill = hi_exp - lo_exp <= 2;
  for (int e = lo_exp; e <= hi_exp; ++e) {
    const double decade = std::pow(10.0, e);
    ticks.push_back(decade);
    if (fill && e < hi_exp) {
      ticks.push_back(2 * decade);
      ticks.push_back(5 * decade);
    }
  }
  return ticks;
}

}  // namespace

std::vector<double> NiceLinearTicks(double lo, double hi, int target) {
  if (!(hi > lo)) {
    // One value: a unit either side (or a tenth of the value), so it sits mid-axis.
    const double pad = lo == 0 ? 1 : std::abs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  const double raw = (hi - lo) / std::max(1, target - 1);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double norm = raw / magnitude;
  const double step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * magnitude;
  // Integer multiples of the step, so the ticks do not collect rounding error.
  const double first = std::floor(lo / step + 1e-9);
  const double last = std::ceil(hi / step - 1e-9);
  std::vector<double> ticks;
  for (double k = first; k <= last; ++k) ticks.push_back(k * step);
  return ticks;
}

std::string TickLabel(double value, double step) {
  static constexpr const char* kPrefixes[] = {"", "k", "M", "G", "T", "P"};
  if (value == 0 || std::abs(value) < std::abs(step) * 1e-9) return "0";
  const double magnitude = std::max(std::abs(value), std::abs(step));
  int prefix = 0;
  if (magnitude >= 1e4)
    prefix = std::min(5, static_cast<int>(std::floor(std::log10(magnitude) / 3)));
  const double scale = std::pow(1000.0, prefix);
  const double scaled = value / scale;
  int decimals = 0;
  if (step > 0) {
    decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step / scale) + 1e-9)));
  } else if (scaled != std::round(scaled)) {
    decimals = std::max(0, 2 - static_cast<int>(std::floor(std::log10(std::abs(scaled)))));
  }
  decimals = std::min(decimals, 9);
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%.*f%s", decimals, scaled == 0 ? 0.0 : scaled,
                kPrefixes[prefix]);
  return buf;
}

Axis Axis::Fit(const AxisSpec& spec, const std::vector<double>& values) {
  if (spec.label_divisor != 1 && spec.label_divisor > 0 && std::isfinite(spec.label_divisor)) {
    // Fitted in display units, so that the ticks are round there, then taken back.
    const double div = spec.label_divisor;
    AxisSpec display = spec;
    display.label_divisor = 1;
    if (display.min) *display.min /= div;
    if (display.max) *display.max /= div;
    for (Tick& t : display.ticks) t.value /= div;
    std::vector<double> scaled = values;
    for (double& v : scaled) v /= div;
    Axis a = Fit(display, scaled);
    a.lo_ = spec.min ? *spec.min : a.lo_ * div;
    a.hi_ = spec.max ? *spec.max : a.hi_ * div;
    for (Tick& t : a.ticks_) t.value *= div;
    return a;
  }
  Axis a;
  a.scale_ = spec.scale;
  double lo = INFINITY, hi = -INFINITY;
  for (const double v : values) {
    if (!Usable(v, spec.scale)) continue;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  for (const Tick& t : spec.ticks) {
    if (!Usable(t.value, spec.scale)) continue;
    lo = std::min(lo, t.value);
    hi = std::max(hi, t.value);
  }
  const bool empty = lo > hi;
  if (spec.scale == AxisScale::kLog10) {
    if (empty) lo = 1, hi = 10;
    if (spec.min && *spec.min > 0) lo = *spec.min;
    if (spec.max && *spec.max > 0) hi = *spec.max;
    int lo_exp = static_cast<int>(std::floor(std::log10(lo) + 1e-12));
    int hi_exp = static_cast<int>(std::ceil(std::log10(hi) - 1e-12));
    if (hi_exp <= lo_exp) hi_exp = lo_exp + 1;
    a.lo_ = spec.min && *spec.min > 0 ? *spec.min : std::pow(10.0, lo_exp);
    a.hi_ = spec.max && *spec.max > a.lo_ ? *spec.max : std::pow(10.0, hi_exp);
    if (spec.ticks.empty()) {
      for (const double t : LogTicks(lo_exp, hi_exp)) {
        if (t >= a.lo_ * (1 - 1e-12) && t <= a.hi_ * (1 + 1e-12))
          a.ticks_.push_back({t, TickLabel(t, 0)});
      }
    }
  } else {
    if (empty) lo = 0, hi = 1;
    if (spec.include_zero) lo = std::min(lo, 0.0), hi = std::max(hi, 0.0);
    if (spec.min) lo = *spec.min;
    if (spec.max) hi = *spec.max;
    const std::vector<double> ticks = NiceLinearTicks(lo, hi, kTargetTicks);
    const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : 0;
    a.lo_ = spec.min ? *spec.min : ticks.front();
    a.hi_ = spec.max && *spec.max > a.lo_ ? *spec.max : std::max(ticks.back(), a.lo_ + step);
    if (spec.ticks.empty()) {
      const double slack = step * 1e-9;
      for (const double t : ticks) {
        if (t >= a.lo_ - slack && t <= a.hi_ + slack) a.ticks_.push_back({t, TickLabel(t, step)});
      }
    }
  }
  for (const Tick& t : spec.ticks) {
    if (a.Shows(t.value)) a.ticks_.push_back(t);
  }
  std::stable_sort(a.ticks_.begin(), a.ticks_.end(),
                   [](const Tick& x, const Tick& y) { return x.value < y.value; });
  return a;
}

bool Axis::Shows(double value) const {
  if (!Usable(value, scale_)) return false;
  // A hair of slack: a value equal to an end must not fall off by rounding.
  const double span = Transform(hi_, scale_) - Transform(lo_, scale_);
  const double f = (Transform(value, scale_) - Transform(lo_, scale_)) / span;
  return f >= -1e-9 && f <= 1 + 1e-9;
}

double Axis::Fraction(double value) const {
  const double lo = Transform(lo_, scale_);
  const double hi = Transform(hi_, scale_);
  return (Transform(value, scale_) - lo) / (hi - lo);
}

std::string Axis::DataAttributes(std::string_view prefix) const {
  const std::string p(prefix);
  return " data-" + p + "scale=\"" + (scale_ == AxisScale::kLog10 ? "log10" : "linear") +
         "\" data-" + p + "lo=\"" + ExactNumber(lo_) + "\" data-" + p + "hi=\"" + ExactNumber(hi_) +
         "\"";
}

}  // namespace fe::control::svg
