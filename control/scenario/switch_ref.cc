#include "control/scenario/switch_ref.h"

namespace fe::control {

std::vector<topo::NodeId> SwitchesOfTier(const topo::Graph& graph, uint8_t tier) {
  std::vector<topo::NodeId> out;
  for (topo::NodeId n = 0; n < graph.nodes().size(); ++n) {
    const topo::Node& node = graph.node(n);
    if (node.kind == topo::NodeKind::kSwitch && node.tier == tier) out.push_back(n);
  }
  return out;
}

std::optional<topo::NodeId> SelectedSwitch(const topo::Graph& graph,
                                           const fabric_emu::SwitchPortRef& ref) {
  if (ref.has_name()) {
    const std::optional<topo::NodeId> n = graph.FindNode(ref.name());
    if (!n || graph.node(*n).kind != topo::NodeKind::kSwitch) return std::nullopt;
    return n;
  }
  if (ref.tier() == fabric_emu::SWITCH_TIER_UNSPECIFIED || ref.index() < 0) return std::nullopt;
  const std::vector<topo::NodeId> tier = SwitchesOfTier(graph, static_cast<uint8_t>(ref.tier()));
  if (static_cast<size_t>(ref.index()) >= tier.size()) return std::nullopt;
  return tier[ref.index()];
}

}  // namespace fe::control
