#include "control/scenario/switch_params.h"

#include <array>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <utility>

#include "control/scenario/load_balancing_params.h"

namespace fe::control {

namespace {

// DWRR weight 1 credits one jumbo frame per round (scenario.proto, QueueConfig.dwrr_weight).
constexpr int64_t kDwrrQuantumPerWeightBytes = 9216;

void ApplyQueue(const fabric_emu::QueueConfig& q, dp::SwitchParams* p) {
  const int prio = q.priority();
  cong::PriorityBufferParams& b = p->buffer.priorities[prio];
  b.alpha = q.alpha();
  b.reserved_bytes = q.reserved_bytes();
  if (q.has_lossless()) b.lossless = q.lossless();
  if (q.has_wred()) p->wred[prio] = BuildWredParams(q.wred());
  cong::EgressQueueParams& e = p->scheduler.queues[prio];
  if (q.has_strict_priority()) e.strict = q.strict_priority();
  e.quantum_bytes = int64_t{q.dwrr_weight()} * kDwrrQuantumPerWeightBytes;
}

}  // namespace

cong::WredParams BuildWredParams(const fabric_emu::Wred& wred) {
  return cong::WredParams{wred.enabled(), wred.kmin_bytes(), wred.kmax_bytes(), wred.pmax(),
                          wred.mark_at_dequeue()};
}

dp::SwitchParams BuildSwitchParams(const fabric_emu::SwitchConfig& sw) {
  dp::SwitchParams p;
  p.dscp.default_priority = sw.default_priority();
  for (const fabric_emu::DscpPriority& row : sw.dscp_to_priority()) {
    bool replaced = false;
    for (cong::DscpMapParams::Entry& e : p.dscp.entries) {
      if (e.dscp == row.dscp()) {
        e.priority = row.priority();
        replaced = true;
      }
    }
    if (!replaced) p.dscp.entries.push_back({.dscp = row.dscp(), .priority = row.priority()});
  }
  p.buffer.total_bytes = sw.buffer_bytes();
  for (const fabric_emu::QueueConfig& q : sw.queue()) {
    if (q.priority() >= 0 && q.priority() < cong::kNumPriorities) ApplyQueue(q, &p);
  }

  const fabric_emu::Pfc& pfc = sw.pfc();
  p.pfc_enabled = pfc.enabled();
  for (cong::PriorityBufferParams& b : p.buffer.priorities) {
    if (pfc.has_xoff_bytes()) b.pfc.xoff_bytes = pfc.xoff_bytes();
    if (pfc.has_xon_bytes()) b.pfc.xon_bytes = pfc.xon_bytes();
    b.pfc.xon_offset_bytes = pfc.xon_offset_bytes();
  }
  if (pfc.has_headroom_bytes()) p.headroom_bytes = pfc.headroom_bytes();
  if (pfc.has_cable_length_m()) p.cable_length_m = pfc.cable_length_m();
  if (pfc.has_response_time_ns()) {
    p.headroom.peer_response_time = Time::FromNs(pfc.response_time_ns());
  }
  const fabric_emu::PfcWatchdog& wd = sw.pfc_watchdog();
  p.watchdog_enabled = wd.enabled();
  p.watchdog.detection_time = Time::FromNs(wd.detection_time_ns());
  p.watchdog.restoration_time = Time::FromNs(wd.restoration_time_ns());
  p.decrement_ttl = sw.decrement_ttl();
  p.lb = BuildLbParams(sw.load_balancing());
  return p;
}

void ApplySwitchSection(const fabric_emu::SwitchConfig& sw, const topo::Graph& graph,
                        dp::FabricParams* params) {
  params->switch_params = BuildSwitchParams(sw);
  fabric_emu::SwitchConfig base = sw;
  base.clear_tier_override();
  base.clear_role_override();
  // By tier: the override that refines it, or none.
  std::array<const fabric_emu::SwitchConfig*,
             std::tuple_size_v<decltype(params->tier_switch_params)>>
      tier_config{};
  for (const fabric_emu::SwitchTierOverride& o : sw.tier_override()) {
    const auto tier = static_cast<size_t>(o.tier());
    if (tier == 0 || tier >= params->tier_switch_params.size()) continue;
    fabric_emu::SwitchConfig merged = base;
    merged.MergeFrom(o.config());
    params->tier_switch_params[tier] = BuildSwitchParams(merged);
    tier_config[tier] = &o.config();
  }
  if (sw.role_override_size() == 0) return;
  std::map<std::string, const fabric_emu::SwitchConfig*> by_role;
  std::map<std::string, const fabric_emu::SwitchConfig*> by_name;
  for (const fabric_emu::SwitchRoleOverride& o : sw.role_override()) {
    if (o.has_name()) {
      by_name.emplace(o.name(), &o.config());
    } else if (o.has_role()) {
      by_role.emplace(o.role(), &o.config());
    }
  }
  // Switches of one tier and role without a name override share one variant.
  std::map<std::pair<uint8_t, std::string>, int32_t> role_variant;
  params->node_switch_variant.assign(graph.nodes().size(), -1);
  for (topo::NodeId n = 0; n < graph.nodes().size(); ++n) {
    const topo::Node& node = graph.node(n);
    if (node.kind != topo::NodeKind::kSwitch) continue;
    const auto role = by_role.find(node.role);
    const auto name = by_name.find(node.name);
    if (role == by_role.end() && name == by_name.end()) continue;
    if (name == by_name.end()) {
      const auto [it, fresh] = role_variant.emplace(std::make_pair(node.tier, node.role),
                                                    params->switch_variants.size());
      params->node_switch_variant[n] = it->second;
      if (!fresh) continue;
    } else {
      params->node_switch_variant[n] = static_cast<int32_t>(params->switch_variants.size());
    }
    fabric_emu::SwitchConfig merged = base;
    if (node.tier < tier_config.size() && tier_config[node.tier] != nullptr) {
      merged.MergeFrom(*tier_config[node.tier]);
    }
    if (role != by_role.end()) merged.MergeFrom(*role->second);
    if (name != by_name.end()) merged.MergeFrom(*name->second);
    params->switch_variants.push_back(BuildSwitchParams(merged));
  }
}

}  // namespace fe::control
