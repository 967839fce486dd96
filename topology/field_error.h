// Errors that name the field they are about: "<field path inside Topology>: <reason>", e.g.
// "clos.tier[1].down_links: must be in [1, 1024], got 0". The status carries the path and the
// reason apart as well (Status::field_path, reason): the scenario validator maps the path to the
// file's line without parsing the message, so every topology error reads the same way.
#pragma once

#include <string>

#include "core/printable.h"
#include "core/status.h"

namespace fe::topo {

Status FieldError(const std::string& path, const std::string& reason);

// A number as a user would write it: integers without a fraction, at most 15 digits.
std::string Num(double v);

// "path.field" or "path.field[index]".
std::string FieldPath(const std::string& path, const std::string& field, int index = -1);

// Ok if lo <= v <= hi (and v is finite); else "<path>: must be in [lo, hi] <why>, got v".
Status CheckRange(const std::string& path, double v, double lo, double hi,
                  const std::string& why = "");

}  // namespace fe::topo
