// The switch section's load_balancing blocks, the scenario-wide one and each tier or role
// override's: every field on its own (the balancer's compile would refuse the same values, but
// without a line to point at).
#include <bit>
#include <string>

#include "congestion/load_balancing_config.h"
#include "control/scenario/validate/validation.h"

namespace fe::control {
namespace {

using fabric_emu::LoadBalancing;
using fabric_emu::SwitchConfig;
using fabric_emu::SwitchRoleOverride;
using fabric_emu::SwitchTierOverride;

// A queue band is a length the shared buffer can hold: the buffer's own bound.
constexpr int64_t kMaxQueueBandBytes = int64_t{1} << 40;

void CheckLoadBalancing(Validation& v, const SwitchConfig& c, const Site& switch_site) {
  if (!c.has_load_balancing()) return;
  const LoadBalancing& lb = c.load_balancing();
  const Site s = switch_site.Nested(SwitchConfig::kLoadBalancingFieldNumber);
  if (lb.has_policy() && lb.policy() == LoadBalancing::POLICY_UNSPECIFIED) {
    v.out.Add(s, LoadBalancing::kPolicyFieldNumber,
              "must be HASH, WEIGHTED, FLOWLET, ADAPTIVE or SPRAY");
  }
  if (lb.has_adaptive_granularity() &&
      lb.adaptive_granularity() == LoadBalancing::GRANULARITY_UNSPECIFIED) {
    v.out.Add(s, LoadBalancing::kAdaptiveGranularityFieldNumber,
              "must be PER_FLOWLET or PER_PACKET");
  }
  if (lb.has_spray_order() && lb.spray_order() == LoadBalancing::SPRAY_ORDER_UNSPECIFIED) {
    v.out.Add(s, LoadBalancing::kSprayOrderFieldNumber, "must be RANDOM or ROUND_ROBIN");
  }
  v.Duration(s, LoadBalancing::kFlowletGapNsFieldNumber, lb.flowlet_gap_ns(), true);
  v.Duration(s, LoadBalancing::kUtilisationWindowNsFieldNumber, lb.utilisation_window_ns(), true);
  const int32_t entries = lb.flowlet_table_entries();
  if (v.out.InRange<int64_t>(s, LoadBalancing::kFlowletTableEntriesFieldNumber, entries,
                             cong::kMinFlowletTableEntries, cong::kMaxFlowletTableEntries,
                             "8 bytes per entry per switch") &&
      !std::has_single_bit(static_cast<uint32_t>(entries))) {
    v.out.Add(s, LoadBalancing::kFlowletTableEntriesFieldNumber,
              "must be a power of two (the flow hash indexes it by its low bits), got " +
                  std::to_string(entries));
  }
  v.out.InRange<int64_t>(s, LoadBalancing::kQueueBandBytesFieldNumber, lb.queue_band_bytes(), 1,
                         kMaxQueueBandBytes);
}

}  // namespace

void ValidateLoadBalancing(Validation& v) {
  const Site s = v.root.Nested(fabric_emu::Scenario::kSwitchFieldNumber);
  const SwitchConfig& base = v.scenario.switch_();
  CheckLoadBalancing(v, base, s);
  for (int i = 0; i < base.tier_override_size(); ++i) {
    CheckLoadBalancing(v, base.tier_override(i).config(),
                       s.Nested(SwitchConfig::kTierOverrideFieldNumber, i)
                           .Nested(SwitchTierOverride::kConfigFieldNumber));
  }
  for (int i = 0; i < base.role_override_size(); ++i) {
    CheckLoadBalancing(v, base.role_override(i).config(),
                       s.Nested(SwitchConfig::kRoleOverrideFieldNumber, i)
                           .Nested(SwitchRoleOverride::kConfigFieldNumber));
  }
}

}  // namespace fe::control
