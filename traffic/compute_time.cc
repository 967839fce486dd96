#include "traffic/compute_time.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace fe {
namespace {

// One standard normal draw by the Box-Muller transform: two uniforms, no state kept between
// calls, so a draw depends only on the generator's position.
double StandardNormal(Random& rng) {
  const double u1 = 1 - rng.NextUnitDouble();  // (0, 1]: the logarithm is finite
  const double u2 = rng.NextUnitDouble();
  return std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
}

}  // namespace

Time ComputeTime::Draw(Random& rng) const {
  if (distribution == Distribution::kFixed) return std::max(mean, min);
  const double mean_ps = static_cast<double>(mean.ps());
  const double stddev_ps = static_cast<double>(stddev.ps());
  double ps = 0;
  if (distribution == Distribution::kNormal) {
    ps = mean_ps + stddev_ps * StandardNormal(rng);
  } else {
    // The lognormal's own mean m and deviation s give its log's parameters:
    // sigma^2 = ln(1 + s^2 / m^2), mu = ln m - sigma^2 / 2.
    const double sigma2 = std::log1p((stddev_ps * stddev_ps) / (mean_ps * mean_ps));
    ps = std::exp(std::log(mean_ps) - sigma2 / 2 + std::sqrt(sigma2) * StandardNormal(rng));
  }
  return std::max(Time::FromPs(static_cast<int64_t>(std::max(ps, 0.0) + 0.5)), min);
}

}  // namespace fe
