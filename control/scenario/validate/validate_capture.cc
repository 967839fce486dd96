// The capture section: the file it writes and the ports it records, each of a host or a switch
// the fabric has.
#include "control/process/output_dir.h"
#include "control/scenario/switch_ref.h"
#include "control/scenario/validate/validation.h"

namespace fe::control {
namespace {

using fabric_emu::PortSelector;
using fabric_emu::SwitchPortRef;

// The switch by name, or by tier and index (exactly one way), and a port it has.
void CheckSwitchPort(Validation& v, const SwitchPortRef& ref, const Site& s) {
  const bool tier_set = ref.tier() != fabric_emu::SWITCH_TIER_UNSPECIFIED;
  if (ref.has_name() && (tier_set || ref.has_index())) {
    v.out.Add(s, SwitchPortRef::kNameFieldNumber,
              "give the switch by name, or by tier and index, not both");
    return;
  }
  std::optional<topo::NodeId> node;
  if (ref.has_name()) {
    if (v.graph) {
      node = SelectedSwitch(*v.graph, ref);
      if (!node) {
        v.out.Add(s, SwitchPortRef::kNameFieldNumber,
                  "no switch is named " + Quoted(ref.name()) +
                      " (switches are named role + index, e.g. leaf3)");
      }
    }
  } else {
    v.out.Present(s, SwitchPortRef::kTierFieldNumber, tier_set,
                  "EDGE, AGGREGATION or CORE (or the switch's name)");
    if (v.out.Present(s, SwitchPortRef::kIndexFieldNumber, ref.has_index(),
                      "the switch's index within its tier")) {
      if (v.graph && tier_set) {
        const auto count =
            static_cast<int>(SwitchesOfTier(*v.graph, static_cast<uint8_t>(ref.tier())).size());
        if (v.out.InRange(s, SwitchPortRef::kIndexFieldNumber, ref.index(), 0, count - 1,
                          "the tier has " + std::to_string(count) + " switches")) {
          node = SelectedSwitch(*v.graph, ref);
        }
      } else {
        v.out.AtLeast(s, SwitchPortRef::kIndexFieldNumber, ref.index(), 0);
      }
    }
  }
  if (v.out.Present(s, SwitchPortRef::kPortFieldNumber, ref.has_port(), "a port number")) {
    if (node) {
      const topo::Node& sw = v.graph->node(*node);
      const auto ports = static_cast<int>(sw.links.size());
      v.out.InRange(s, SwitchPortRef::kPortFieldNumber, ref.port(), 0, ports - 1,
                    sw.name + " has " + std::to_string(ports) + " ports");
    } else {
      v.out.AtLeast(s, SwitchPortRef::kPortFieldNumber, ref.port(), 0);
    }
  }
}

}  // namespace

void ValidateCapture(Validation& v) {
  const Site s = v.root.Nested(fabric_emu::Scenario::kCaptureFieldNumber);
  const auto& cap = v.scenario.capture();
  using fabric_emu::Capture;
  v.out.Present(s, Capture::kPortFieldNumber, cap.port_size() > 0,
                "at least one port { host: N } or port { switch_port { ... } }");
  if (v.out.Present(s, Capture::kFileFieldNumber, !cap.file().empty(), "an output file name")) {
    if (!IsPlainName(cap.file())) {
      v.out.Add(s, Capture::kFileFieldNumber,
                "must be a file name in the output directory: 1 to 64 letters, digits, '_', '-' "
                "or '.', not starting with '.'; got " +
                    Quoted(cap.file()));
    } else if (IsRunOutputName(cap.file()) || cap.file() == kApiTokenFileName) {
      v.out.Add(s, Capture::kFileFieldNumber,
                "must not be the name of another output of the run, got " + Quoted(cap.file()));
    }
  }
  for (int i = 0; i < cap.port_size(); ++i) {
    const PortSelector& sel = cap.port(i);
    const Site ss = s.Nested(Capture::kPortFieldNumber, i);
    switch (sel.node_case()) {
      case PortSelector::kHost:
        v.CheckHost(ss, PortSelector::kHostFieldNumber, true, sel.host());
        break;
      case PortSelector::kSwitchPort:
        CheckSwitchPort(v, sel.switch_port(), ss.Nested(PortSelector::kSwitchPortFieldNumber));
        break;
      case PortSelector::NODE_NOT_SET:
        v.out.AddWhole(ss, "choose host: N or switch_port { name: ... port: ... }");
        break;
    }
  }
}

}  // namespace fe::control
