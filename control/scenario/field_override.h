// One scenario field replaced by its path, as `--set PATH=VALUE` gives it, through Protobuf
// reflection: nested messages (topology.fat_tree.k), elements of repeated fields by index
// (traffic[0].permutation.message_bytes, collective.host[2]), enums by name (PAPER), bools
// (true, false), numbers checked against their type's range, strings as written (or inside
// double quotes, which are taken off, so that a sweep's list of strings can hold commas), whole
// messages in text format (nic.cc={dcqcn {preset: NVIDIA}}). Setting a field inside a member of
// a oneof switches the oneof to that member, as the text format does. The scenario's own rules
// (ranges, references) are the validator's: this only refuses what cannot be written at all.
#pragma once

#include <google/protobuf/message.h>

#include <string>
#include <string_view>

#include "core/status.h"

namespace fe::control {

// One `--set` argument: PATH=VALUE split at the first '='.
struct FieldOverride {
  std::string path;
  std::string value;
};

// Splits "PATH=VALUE"; refuses an argument without '=' or with an empty path.
StatusOr<FieldOverride> ParseFieldOverride(std::string_view arg);

// Whether `path` names a field that can be set in `root` as it is (the checks of SetFieldByPath
// that do not depend on the value), with the same messages.
Status CheckFieldPath(const google::protobuf::Message& root, std::string_view path);

// Writes `value` into the field `path` names inside `root`. On error `root` is left as it was,
// and the message names what is wrong without the path itself ("no field 'x' in FatTree; fields
// are k, ..."), for the caller to put after "--set PATH: ".
Status SetFieldByPath(google::protobuf::Message* root, std::string_view path,
                      std::string_view value);

}  // namespace fe::control
