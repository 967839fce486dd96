// A compute time of a workload phase (a training microbatch's forward or backward pass, an
// optimizer step): fixed, or drawn from a distribution with a floor.
#pragma once

#include "core/random.h"
#include "core/units.h"

namespace fe {

struct ComputeTime {
  enum class Distribution : uint8_t { kFixed, kNormal, kLognormal };
  Distribution distribution = Distribution::kFixed;
  Time mean;    // kFixed: the time
  Time stddev;  // kNormal, kLognormal: the standard deviation of the times drawn (before the floor)
  Time min;     // no draw is less

  // kFixed returns mean without drawing; the others draw from `rng`.
  Time Draw(Random& rng) const;
};

}  // namespace fe
