#include "congestion/dscp_map.h"

#include <string>

namespace fe::cong {
namespace {

bool InRange(int v, int lo, int hi) { return v >= lo && v <= hi; }

std::string OutOfRange(const std::string& field, int value, int hi) {
  return field + " (" + std::to_string(value) + ") outside [0, " + std::to_string(hi) + "]";
}

}  // namespace

StatusOr<DscpMapConfig> Compile(const DscpMapParams& params) {
  if (!InRange(params.default_priority, 0, kNumPriorities - 1)) {
    return Status::Error(
        OutOfRange("default_priority", params.default_priority, kNumPriorities - 1));
  }
  DscpMapConfig config;
  config.priority_of_dscp.fill(static_cast<uint8_t>(params.default_priority));
  std::array<bool, kNumDscp> seen{};
  for (size_t i = 0; i < params.entries.size(); ++i) {
    const DscpMapParams::Entry& e = params.entries[i];
    const std::string field = "entries[" + std::to_string(i) + "]";
    if (!InRange(e.dscp, 0, kNumDscp - 1)) {
      return Status::Error(OutOfRange(field + ".dscp", e.dscp, kNumDscp - 1));
    }
    if (!InRange(e.priority, 0, kNumPriorities - 1)) {
      return Status::Error(OutOfRange(field + ".priority", e.priority, kNumPriorities - 1));
    }
    if (seen[e.dscp]) {
      return Status::Error(field + ".dscp (" + std::to_string(e.dscp) + ") is mapped twice");
    }
    seen[e.dscp] = true;
    config.priority_of_dscp[e.dscp] = static_cast<uint8_t>(e.priority);
  }
  return config;
}

}  // namespace fe::cong
