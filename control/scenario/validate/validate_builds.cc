// The NICs and switches built as the run will build them, so that what the field checks cannot
// see (a value that rounds to nothing, a headroom that a port's link makes larger than the
// buffer) stops the run here, with the file and line, rather than when the run starts. Only
// once everything else holds, so that an error is reported once, at its field.
#include <google/protobuf/reflection.h>

#include "control/scenario/nic_params.h"
#include "control/scenario/switch_params.h"
#include "control/scenario/validate/validate_admission.h"
#include "control/scenario/validate/validation.h"
#include "dataplane/credit_links.h"
#include "dataplane/fabric.h"
#include "dataplane/switch_config.h"

namespace fe::control {
namespace {

using fabric_emu::SwitchConfig;
using fabric_emu::SwitchRoleOverride;
using fabric_emu::Topology;

// The most specific override that applies to switch `node` (name, role, then tier), or the
// section itself: where a switch that cannot be built is reported.
Site SettingsOf(const Validation& v, const Site& section, const topo::Node& node) {
  const SwitchConfig& sw = v.scenario.switch_();
  std::optional<Site> role;
  for (int i = 0; i < sw.role_override_size(); ++i) {
    const SwitchRoleOverride& o = sw.role_override(i);
    const Site os = section.Nested(SwitchConfig::kRoleOverrideFieldNumber, i)
                        .Nested(SwitchRoleOverride::kConfigFieldNumber);
    if (o.has_name() && o.name() == node.name) return os;
    if (!role && o.has_role() && o.role() == node.role) role = os;
  }
  if (role) return *role;
  for (int i = 0; i < sw.tier_override_size(); ++i) {
    if (static_cast<int>(sw.tier_override(i).tier()) == node.tier) {
      return section.Nested(SwitchConfig::kTierOverrideFieldNumber, i)
          .Nested(fabric_emu::SwitchTierOverride::kConfigFieldNumber);
    }
  }
  return section;
}

// Without a switch section the links alone decide the headroom the default buffer must hold:
// reports at what set the delay of the switch's longest link, its link class
// (topology.link_class[i]) or the builder's own link_delay_ns.
void ReportAtLongestLink(Validation& v, const topo::Node& node, const std::string& message) {
  const topo::Graph& g = *v.graph;
  const Topology& topology = v.scenario.topology();
  const Site ts = v.root.Nested(fabric_emu::Scenario::kTopologyFieldNumber);
  topo::LinkId longest = node.links[0];
  for (const topo::LinkId l : node.links) {
    if (g.link(l).delay > g.link(longest).delay) longest = l;
  }
  const topo::LinkClassId id = g.link(longest).link_class;
  if (id < g.link_classes().size()) {
    for (int i = 0; i < topology.link_class_size(); ++i) {
      const fabric_emu::LinkClass& c = topology.link_class(i);
      if (c.name() != g.link_classes()[id].name) continue;
      const Site cs = ts.Nested(Topology::kLinkClassFieldNumber, i);
      v.out.Add(cs,
                c.has_length_m() ? fabric_emu::LinkClass::kLengthMFieldNumber
                                 : fabric_emu::LinkClass::kDelayNsFieldNumber,
                message);
      return;
    }
  }
  const pb::FieldDescriptor* builder = topology.GetReflection()->GetOneofFieldDescriptor(
      topology, Topology::descriptor()->oneof_decl(0));
  if (builder == nullptr) {
    v.out.AddWhole(ts, message);
    return;
  }
  const Site bs = ts.Nested(builder->number());
  const pb::FieldDescriptor* delay = builder->message_type()->FindFieldByName("link_delay_ns");
  if (delay == nullptr) {
    v.out.AddWhole(bs, message);
  } else {
    v.out.Add(bs, delay->number(), message);
  }
}

}  // namespace

void ValidateBuilds(Validation& v) {
  if (!v.out.empty()) return;
  StatusOr<dp::NicParams> nic = BuildNicParams(v.scenario.nic());
  if (!nic.ok()) {
    v.out.AddWhole(v.root.Nested(fabric_emu::Scenario::kNicFieldNumber),
                   "the NICs cannot be built: " + nic.status().message());
    return;
  }
  if (!v.graph) return;
  const topo::Graph& g = *v.graph;
  dp::FabricParams params;
  params.nic = *nic;
  ApplySwitchSection(v.scenario.switch_(), g, &params);
  const Site section = v.root.Nested(fabric_emu::Scenario::kSwitchFieldNumber);
  std::vector<dp::PortLink> ports;
  for (topo::NodeId n = 0; n < g.nodes().size(); ++n) {
    const topo::Node& node = g.node(n);
    if (node.kind != topo::NodeKind::kSwitch || node.links.empty()) continue;
    ports.clear();
    for (const topo::LinkId l : node.links)
      ports.push_back(dp::PortLinkOf(g, l, dp::RoceFrameBytes(nic->mtu_payload_bytes)));
    const StatusOr<dp::SwitchConfig> config =
        dp::Compile(dp::SwitchParamsOf(params, n, node.tier), ports);
    if (config.ok()) {
      if (!CheckAdmitsFullFrames(v, SettingsOf(v, section, node), node, config.value(),
                                 params.nic.mtu_payload_bytes)) {
        return;  // one switch says it: the others most likely fail alike
      }
      continue;
    }
    if (v.scenario.has_switch_()) {
      v.out.Add(SettingsOf(v, section, node), SwitchConfig::kBufferBytesFieldNumber,
                "the switch " + node.name + " cannot be built: " + config.status().message());
    } else {
      ReportAtLongestLink(
          v, node,
          "the switch " + node.name +
              " cannot be built with the default switch settings: " + config.status().message() +
              "; give the switches a larger buffer (switch { buffer_bytes: ... }) or shorter "
              "links");
    }
    return;  // one switch says it: the others most likely fail alike
  }
}

}  // namespace fe::control
