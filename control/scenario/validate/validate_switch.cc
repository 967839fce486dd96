// The switch section: its fields, then each override on top of what it refines. Tier overrides
// name fat-tree tiers; role overrides name a role or one switch of the built graph.
#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "control/scenario/validate/validate_switch.h"

namespace fe::control {
namespace {

using fabric_emu::SwitchConfig;
using fabric_emu::SwitchRoleOverride;
using fabric_emu::SwitchTier;
using fabric_emu::SwitchTierOverride;

// The most ports a switch of the graph that `applies` selects has; 0 without a graph.
int MaxPorts(const Validation& v, const std::function<bool(const topo::Node&)>& applies) {
  if (!v.graph) return 0;
  size_t ports = 0;
  for (const topo::Node& n : v.graph->nodes()) {
    if (n.kind == topo::NodeKind::kSwitch && applies(n)) ports = std::max(ports, n.links.size());
  }
  return static_cast<int>(ports);
}

// The tiers the graph's switches are in, by name where the scenario can name them.
std::string TiersOf(const topo::Graph& graph) {
  std::set<int> tiers;
  for (const topo::Node& n : graph.nodes()) {
    if (n.kind == topo::NodeKind::kSwitch) tiers.insert(n.tier);
  }
  std::string out;
  for (const int t : tiers) {
    out += (out.empty() ? "" : ", ") +
           (fabric_emu::SwitchTier_IsValid(t)
                ? fabric_emu::SwitchTier_Name(static_cast<fabric_emu::SwitchTier>(t))
                : std::to_string(t));
  }
  return out;
}

void CheckTierOverrides(Validation& v, const Site& s) {
  const SwitchConfig& base = v.scenario.switch_();
  std::map<SwitchTier, int> seen;
  for (int i = 0; i < base.tier_override_size(); ++i) {
    const SwitchTierOverride& o = base.tier_override(i);
    const Site os = s.Nested(SwitchConfig::kTierOverrideFieldNumber, i);
    const int tier_field = SwitchTierOverride::kTierFieldNumber;
    if (!v.out.Present(os, tier_field,
                       o.has_tier() && o.tier() != fabric_emu::SWITCH_TIER_UNSPECIFIED,
                       "EDGE, AGGREGATION or CORE")) {
      continue;
    }
    if (const auto [it, fresh] = seen.emplace(o.tier(), i); !fresh) {
      v.out.Add(os, tier_field,
                fabric_emu::SwitchTier_Name(o.tier()) + " is already overridden by " +
                    s.Path(SwitchConfig::kTierOverrideFieldNumber, it->second));
    }
    const Site cs = os.Nested(SwitchTierOverride::kConfigFieldNumber);
    CheckSwitchFields(v, o.config(), cs, /*top_level=*/false);
    const int ports =
        MaxPorts(v, [&](const topo::Node& n) { return n.tier == static_cast<int>(o.tier()); });
    if (v.graph && ports == 0) {
      v.out.Add(os, tier_field,
                "no switch is in tier " + fabric_emu::SwitchTier_Name(o.tier()) +
                    "; this fabric's switches are in " + TiersOf(*v.graph));
      continue;
    }
    CheckSwitchConsistency(v, {{&base, s}, {&o.config(), cs}},
                           " for " + fabric_emu::SwitchTier_Name(o.tier()) + " switches", ports);
  }
}

// Exactly one of role and name, naming a role or a switch the graph has, each at most once.
// A name override is checked on top of its switch's role override, if any.
void CheckRoleOverrides(Validation& v, const Site& s) {
  const SwitchConfig& base = v.scenario.switch_();
  std::map<std::string, int> role_seen;
  std::map<std::string, int> name_seen;
  for (int i = 0; i < base.role_override_size(); ++i) {
    const SwitchRoleOverride& o = base.role_override(i);
    const Site os = s.Nested(SwitchConfig::kRoleOverrideFieldNumber, i);
    if (o.has_role() == o.has_name()) {
      v.out.AddWhole(os, o.has_role() ? "give role or name, not both"
                                      : "required: role: \"leaf\" or name: \"leaf3\"");
      continue;
    }
    const Site cs = os.Nested(SwitchRoleOverride::kConfigFieldNumber);
    CheckSwitchFields(v, o.config(), cs, /*top_level=*/false);
    if (o.has_role()) {
      const int field = SwitchRoleOverride::kRoleFieldNumber;
      if (const auto [it, fresh] = role_seen.emplace(o.role(), i); !fresh) {
        v.out.Add(os, field,
                  "role " + Quoted(o.role()) + " is already overridden by " +
                      s.Path(SwitchConfig::kRoleOverrideFieldNumber, it->second));
        continue;
      }
      const int ports = MaxPorts(v, [&](const topo::Node& n) { return n.role == o.role(); });
      if (v.graph && ports == 0) {
        v.out.Add(
            os, field,
            "no switch has role " + Quoted(o.role()) + "; the roles are " + RolesOf(*v.graph));
        continue;
      }
      CheckSwitchConsistency(v, {{&base, s}, {&o.config(), cs}},
                             " for the " + o.role() + " switches", ports);
      continue;
    }
    const int field = SwitchRoleOverride::kNameFieldNumber;
    if (const auto [it, fresh] = name_seen.emplace(o.name(), i); !fresh) {
      v.out.Add(os, field,
                "switch " + Quoted(o.name()) + " is already overridden by " +
                    s.Path(SwitchConfig::kRoleOverrideFieldNumber, it->second));
      continue;
    }
    if (!v.graph) continue;
    const std::optional<topo::NodeId> node = v.graph->FindNode(o.name());
    if (!node || v.graph->node(*node).kind != topo::NodeKind::kSwitch) {
      v.out.Add(os, field,
                "no switch is named " + Quoted(o.name()) +
                    " (switches are named role + index, e.g. leaf3)");
      continue;
    }
    const topo::Node& sw = v.graph->node(*node);
    std::vector<SwitchLayer> layers = {{&base, s}};
    for (int r = 0; r < base.role_override_size(); ++r) {
      const SwitchRoleOverride& ro = base.role_override(r);
      if (ro.has_role() && !ro.has_name() && ro.role() == sw.role) {
        layers.push_back({&ro.config(), s.Nested(SwitchConfig::kRoleOverrideFieldNumber, r)
                                            .Nested(SwitchRoleOverride::kConfigFieldNumber)});
        break;
      }
    }
    layers.push_back({&o.config(), cs});
    CheckSwitchConsistency(v, layers, " for switch " + sw.name, static_cast<int>(sw.links.size()));
  }
}

}  // namespace

std::string RolesOf(const topo::Graph& graph) {
  std::set<std::string> roles;
  for (const topo::Node& n : graph.nodes()) {
    if (n.kind == topo::NodeKind::kSwitch) roles.insert(n.role);
  }
  std::string out;
  for (const std::string& r : roles) out += (out.empty() ? "" : ", ") + r;
  return out;
}

void ValidateSwitch(Validation& v) {
  const Site s = v.root.Nested(fabric_emu::Scenario::kSwitchFieldNumber);
  const SwitchConfig& base = v.scenario.switch_();
  CheckSwitchFields(v, base, s, /*top_level=*/true);
  CheckSwitchConsistency(v, {{&base, s}}, "", MaxPorts(v, [](const topo::Node&) { return true; }));
  CheckTierOverrides(v, s);
  CheckRoleOverrides(v, s);
}

}  // namespace fe::control
