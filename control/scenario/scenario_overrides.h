// A scenario with `--set` values written in and validated again as a whole: what `run --set`
// runs and what each point of a sweep is.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "control/scenario/field_override.h"
#include "core/status.h"
#include "proto/scenario.pb.h"

namespace fe::control {

// `base` (valid on its own) with each override written in, in order, then checked by the
// scenario validator. Errors: "--set PATH: reason" for a path that names no field to set,
// "--set PATH=VALUE: reason" for a value the field cannot take, else
// every rule the result breaks, as "FILE: field.path: reason" (FILE is `scenario_path`, which
// also locates relative input paths; no line, since the values are not in the file), one a line.
StatusOr<fabric_emu::Scenario> WithOverrides(const fabric_emu::Scenario& base,
                                             std::span<const FieldOverride> overrides,
                                             const std::string& scenario_path);

// `run --set PATH=VALUE`, each argument one value: *scenario replaced by WithOverrides' result,
// or left as it was on error.
Status ApplySetOptions(std::span<const std::string> set_args, const std::string& scenario_path,
                       fabric_emu::Scenario* scenario);

}  // namespace fe::control
