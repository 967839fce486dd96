#include "topology/field_error.h"

#include <cmath>
#include <cstdio>

namespace fe::topo {

Status FieldError(const std::string& path, const std::string& reason) {
  return Status::FieldError(path, reason);
}

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.15g", v);
  return buf;
}

std::string FieldPath(const std::string& path, const std::string& field, int index) {
  std::string out = path.empty() ? field : path + "." + field;
  if (index >= 0) out += "[" + std::to_string(index) + "]";
  return out;
}

Status CheckRange(const std::string& path, double v, double lo, double hi, const std::string& why) {
  if (std::isfinite(v) && v >= lo && v <= hi) return Status::Ok();
  std::string reason = "must be in [" + Num(lo) + ", " + Num(hi) + "]";
  if (!why.empty()) reason += " " + why;
  return FieldError(path, reason + ", got " + Num(v));
}

}  // namespace fe::topo
