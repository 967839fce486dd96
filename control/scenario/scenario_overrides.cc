#include "control/scenario/scenario_overrides.h"

#include <google/protobuf/text_format.h>

#include "control/scenario/validate/scenario_validator.h"
#include "core/printable.h"

namespace fe::control {

StatusOr<fabric_emu::Scenario> WithOverrides(const fabric_emu::Scenario& base,
                                             std::span<const FieldOverride> overrides,
                                             const std::string& scenario_path) {
  fabric_emu::Scenario scenario = base;
  for (const FieldOverride& o : overrides) {
    if (Status s = CheckFieldPath(scenario, o.path); !s.ok()) {
      return Status::Error("--set " + Printable(o.path) + ": " + s.message());
    }
    if (Status s = SetFieldByPath(&scenario, o.path, o.value); !s.ok()) {
      return Status::Error("--set " + Printable(o.path) + "=" + Printable(o.value) + ": " +
                           s.message());
    }
  }
  // No locations: the errors name the file and the field, which is where the value came from.
  const google::protobuf::TextFormat::ParseInfoTree no_locations;
  const std::vector<std::string> errors = ValidateScenario(scenario, no_locations, scenario_path);
  if (errors.empty()) return scenario;
  std::string joined;
  for (const std::string& e : errors) joined += (joined.empty() ? "" : "\n") + Printable(e);
  return Status::Error(joined);
}

Status ApplySetOptions(std::span<const std::string> set_args, const std::string& scenario_path,
                       fabric_emu::Scenario* scenario) {
  std::vector<FieldOverride> overrides;
  for (const std::string& arg : set_args) {
    StatusOr<FieldOverride> o = ParseFieldOverride(arg);
    if (!o.ok()) return Status::Error("--set " + o.status().message());
    for (const FieldOverride& earlier : overrides) {
      if (earlier.path == o->path) {
        return Status::Error("--set " + Printable(o->path) + " given twice");
      }
    }
    overrides.push_back(*o);
  }
  StatusOr<fabric_emu::Scenario> result = WithOverrides(*scenario, overrides, scenario_path);
  if (!result.ok()) {
    // A list is a sweep's: say so when a value that failed holds a comma.
    for (const FieldOverride& o : overrides) {
      if (o.value.find(',') != std::string::npos &&
          result.status().message().starts_with("--set " + Printable(o.path) + "=")) {
        return Status::Error(result.status().message() +
                             " (run takes one value; `fabric-emu sweep` runs a list)");
      }
    }
    return result.status();
  }
  *scenario = std::move(result).value();
  return Status::Ok();
}

}  // namespace fe::control
