// Settings, not the choice: dataplane/load_balancer.cc picks members (plain hash ECMP: switch.cc).
#include "congestion/load_balancing_config.h"

#include <bit>
#include <string>

namespace fe::cong {

const char* LbPolicyName(LbPolicy p) {
  switch (p) {
    case LbPolicy::kHash:
      return "hash";
    case LbPolicy::kWeighted:
      return "weighted";
    case LbPolicy::kFlowlet:
      return "flowlet";
    case LbPolicy::kAdaptive:
      return "adaptive";
    case LbPolicy::kSpray:
      return "spray";
  }
  return "?";
}

StatusOr<LbConfig> Compile(const LbParams& p) {
  if (p.flowlet_table_entries < kMinFlowletTableEntries ||
      p.flowlet_table_entries > kMaxFlowletTableEntries ||
      !std::has_single_bit(p.flowlet_table_entries)) {
    return Status::Error("flowlet_table_entries: must be a power of two in [" +
                         std::to_string(kMinFlowletTableEntries) + ", " +
                         std::to_string(kMaxFlowletTableEntries) + "], got " +
                         std::to_string(p.flowlet_table_entries));
  }
  if (p.flowlet_gap.ps() <= 0) return Status::Error("flowlet_gap: must be positive");
  if (p.queue_band_bytes <= 0) return Status::Error("queue_band_bytes: must be positive");
  if (p.utilisation_window.ps() <= 0) {
    return Status::Error("utilisation_window: must be positive");
  }
  LbConfig c;
  c.policy = p.policy;
  c.spray_order = p.spray_order;
  c.adaptive_per_packet = p.adaptive_per_packet && p.policy == LbPolicy::kAdaptive;
  const auto tick = int64_t{1} << kTickShift;
  c.flowlet_gap_ticks = static_cast<uint64_t>((p.flowlet_gap.ps() + tick - 1) / tick);
  c.flowlet_table_entries = p.flowlet_table_entries;
  c.queue_band_bytes = p.queue_band_bytes;
  c.utilisation_window_ps = p.utilisation_window.ps();
  return c;
}

}  // namespace fe::cong
