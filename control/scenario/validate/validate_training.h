// The training section's checks (docs/scenario.md, "Training").
#pragma once

#include "control/scenario/validate/validation.h"
#include "proto/training.pb.h"

namespace fe::control {

// Reports into v.out; returns about how many messages the section makes.
double ValidateTraining(Validation& v, const fabric_emu::Training& t, const Site& s);

}  // namespace fe::control
