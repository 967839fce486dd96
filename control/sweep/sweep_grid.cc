#include "control/sweep/sweep_grid.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "control/process/input_paths.h"
#include "control/scenario/field_override.h"
#include "control/scenario/scenario_overrides.h"
#include "core/printable.h"

namespace fe::control {
namespace {

// At most this many refused points are described; a grid refused for one reason would
// otherwise repeat it for every point.
constexpr size_t kMaxPointsDescribed = 5;
// Bytes of a value kept in a directory name, and of the whole name.
constexpr size_t kMaxNameValueBytes = 32;
constexpr size_t kMaxNameBytes = 200;

std::vector<std::string> SplitTopLevel(std::string_view text) {
  std::vector<std::string> parts;
  std::string part;
  int depth = 0;
  char quote = 0;
  for (const char c : text) {
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '{' || c == '[' || c == '<') {
      ++depth;
    } else if (c == '}' || c == ']' || c == '>') {
      --depth;
    } else if (c == ',' && depth == 0) {
      parts.push_back(std::move(part));
      part.clear();
      continue;
    }
    part += c;
  }
  parts.push_back(std::move(part));
  return parts;
}

// The path's last `steps` field names, each index written after its name:
// traffic[0].permutation.message_bytes, 2 -> permutation.message_bytes.
std::string PathSuffix(const std::string& path, size_t steps) {
  std::vector<std::string> names;
  size_t begin = 0;
  while (true) {
    const size_t dot = path.find('.', begin);
    std::string name = path.substr(begin, dot == std::string::npos ? dot : dot - begin);
    std::erase(name, '[');
    std::erase(name, ']');
    names.push_back(std::move(name));
    if (dot == std::string::npos) break;
    begin = dot + 1;
  }
  std::string out;
  for (size_t i = names.size() - std::min(steps, names.size()); i < names.size(); ++i) {
    out += (out.empty() ? "" : ".") + names[i];
  }
  return out;
}

size_t StepCount(const std::string& path) { return std::ranges::count(path, '.') + size_t{1}; }

// Each axis's label: the fewest trailing field names no other axis ends with.
void LabelAxes(std::vector<SweepAxis>* axes) {
  for (SweepAxis& a : *axes) {
    for (size_t steps = 1; steps <= StepCount(a.path); ++steps) {
      a.label = PathSuffix(a.path, steps);
      const bool shared = std::ranges::any_of(*axes, [&](const SweepAxis& other) {
        return &other != &a && PathSuffix(other.path, steps) == a.label;
      });
      if (!shared) break;
    }
  }
}

// A value as part of a directory name: letters, digits and . + - kept, every other run of bytes
// one '_', cut to kMaxNameValueBytes.
std::string NamePart(std::string_view value) {
  std::string out;
  for (const char c : value) {
    const bool keep =
        std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '+' || c == '-' || c == '_';
    if (keep) {
      out += c;
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  if (out.size() > kMaxNameValueBytes) out.resize(kMaxNameValueBytes);
  return out;
}

// Each line of `text` on a line of its own, indented under the point that refused it.
std::string Indented(const std::string& text) {
  std::string out = "\n  ";
  for (const char c : text) out += c == '\n' ? std::string("\n  ") : std::string(1, c);
  return out;
}

std::string PointName(std::span<const SweepAxis> axes, size_t index, size_t count,
                      const std::vector<std::string>& values) {
  // Zero-padded to the widest number, at least 3 digits, so that names sort in grid order.
  const size_t width = std::max<size_t>(3, std::to_string(count - 1).size());
  const std::string number = std::to_string(index);
  std::string name = "point-" + std::string(width - std::min(width, number.size()), '0') + number;
  for (size_t a = 0; a < axes.size(); ++a) {
    name += "-" + NamePart(axes[a].label) + "=" + NamePart(values[a]);
  }
  // File systems take names of up to 255 bytes; the number in front keeps a cut name unique.
  if (name.size() > kMaxNameBytes) name.resize(kMaxNameBytes);
  return name;
}

}  // namespace

StatusOr<SweepAxis> ParseSweepAxis(std::string_view arg) {
  StatusOr<FieldOverride> o = ParseFieldOverride(arg);
  if (!o.ok()) return Status::Error("--set " + o.status().message());
  SweepAxis axis;
  axis.path = o->path;
  axis.values = SplitTopLevel(o->value);
  for (size_t i = 0; i < axis.values.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (axis.values[i] == axis.values[j]) {
        return Status::Error("--set " + Printable(axis.path) + ": value " + Quoted(axis.values[i]) +
                             " given twice");
      }
    }
  }
  return axis;
}

StatusOr<SweepGrid> BuildSweepGrid(const fabric_emu::Scenario& base, std::vector<SweepAxis> axes,
                                   const std::string& scenario_path) {
  if (axes.empty()) {
    return Status::Error("a sweep needs at least one --set PATH=V1,V2,... (the values to run)");
  }
  std::string errors;
  const auto add_error = [&errors](const std::string& e) {
    errors += (errors.empty() ? "" : "\n") + e;
  };
  size_t count = 1;
  for (size_t a = 0; a < axes.size(); ++a) {
    for (size_t b = 0; b < a; ++b) {
      if (axes[a].path == axes[b].path) {
        return Status::Error("--set " + Printable(axes[a].path) + " given twice");
      }
    }
    // The path once, then each value alone: an error is named once, not in every point.
    if (Status s = CheckFieldPath(base, axes[a].path); !s.ok()) {
      add_error("--set " + Printable(axes[a].path) + ": " + s.message());
      continue;
    }
    for (const std::string& v : axes[a].values) {
      fabric_emu::Scenario probe = base;
      if (Status s = SetFieldByPath(&probe, axes[a].path, v); !s.ok()) {
        add_error("--set " + Printable(axes[a].path) + "=" + Printable(v) + ": " + s.message());
      }
    }
    count = std::min(count * axes[a].values.size(), kMaxSweepPoints + 1);
  }
  if (!errors.empty()) return Status::Error(errors);
  if (count > kMaxSweepPoints) {
    return Status::Error("the grid has more than " + std::to_string(kMaxSweepPoints) +
                         " points (the product of the --set lists' lengths); split the sweep");
  }
  LabelAxes(&axes);

  SweepGrid grid;
  const std::filesystem::path scenario_dir = std::filesystem::path(scenario_path).parent_path();
  size_t refused = 0;
  for (size_t index = 0; index < count; ++index) {
    SweepPoint point;
    point.index = index;
    std::vector<FieldOverride> overrides;
    // The last axis varies fastest, as nested loops in the order the --set options are given.
    size_t rest = index;
    point.values.resize(axes.size());
    for (size_t a = axes.size(); a-- > 0;) {
      point.values[a] = axes[a].values[rest % axes[a].values.size()];
      rest /= axes[a].values.size();
    }
    for (size_t a = 0; a < axes.size(); ++a) {
      overrides.push_back(FieldOverride{axes[a].path, point.values[a]});
    }
    point.name = PointName(axes, index, count, point.values);
    StatusOr<fabric_emu::Scenario> scenario = WithOverrides(base, overrides, scenario_path);
    if (!scenario.ok()) {
      if (++refused <= kMaxPointsDescribed) {
        add_error("point " + std::to_string(index) + " (" + DescribePoint(axes, point) +
                  ") is refused:" + Indented(scenario.status().message()));
      }
      continue;
    }
    point.scenario = std::move(scenario).value();
    AnchorInputPaths(scenario_dir, &point.scenario);
    grid.points.push_back(std::move(point));
  }
  if (refused > kMaxPointsDescribed) {
    add_error("... and " + std::to_string(refused - kMaxPointsDescribed) + " more points refused");
  }
  if (!errors.empty()) {
    return Status::Error(errors + "\n" + std::to_string(refused) + " of " + std::to_string(count) +
                         " points refused; a sweep runs only when every point is valid");
  }
  grid.axes = std::move(axes);
  return grid;
}

std::string DescribePoint(std::span<const SweepAxis> axes, const SweepPoint& point) {
  std::string out;
  for (size_t a = 0; a < axes.size(); ++a) {
    out += (a == 0 ? "" : " ") + axes[a].label + "=" + Printable(point.values[a]);
  }
  return out;
}

}  // namespace fe::control
