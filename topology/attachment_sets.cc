#include "topology/attachment_sets.h"

#include <algorithm>

namespace fe::topo::internal {
namespace {

// Labels the components of the switch graph; returns them with their switches.
std::vector<Component> FindComponents(SwitchFabric& f) {
  const auto num_slots = static_cast<uint32_t>(f.node_of.size());
  std::vector<Component> components;
  f.component.assign(num_slots, kNone);
  f.local.assign(num_slots, 0);
  std::vector<uint32_t> queue;
  for (uint32_t root = 0; root < num_slots; ++root) {
    if (f.component[root] != kNone) continue;
    const auto c = static_cast<uint32_t>(components.size());
    f.component[root] = c;
    queue.assign(1, root);
    for (size_t head = 0; head < queue.size(); ++head) {
      for (uint32_t i = f.nbr_begin[queue[head]]; i < f.nbr_begin[queue[head] + 1]; ++i) {
        if (f.component[f.nbr_slot[i]] == kNone) {
          f.component[f.nbr_slot[i]] = c;
          queue.push_back(f.nbr_slot[i]);
        }
      }
    }
    std::sort(queue.begin(), queue.end());
    for (uint32_t i = 0; i < queue.size(); ++i) f.local[queue[i]] = i;
    components.emplace_back().slots = queue;
  }
  return components;
}

}  // namespace

void Component::Add(uint32_t dst, const std::vector<uint32_t>& key) {
  // Successive destinations mostly share a key: compared before hashing.
  uint32_t id = runs.empty() ? kNone : runs.back().second;
  if (id == kNone || keys[id] != key) {
    const auto it = key_ids.find(key);
    if (it != key_ids.end()) {
      id = it->second;
    } else {
      id = static_cast<uint32_t>(keys.size());
      keys.push_back(key);
      key_ids.emplace(key, id);
    }
  }
  if (dst > next_dst) runs.emplace_back(next_dst, kNone);
  if (runs.empty() || runs.back().second != id) runs.emplace_back(dst, id);
  next_dst = dst + 1;
}

void Component::Finish(uint32_t num_hosts) {
  if (next_dst < num_hosts) runs.emplace_back(next_dst, kNone);
}

SwitchFabric LinkSwitches(const Graph& graph, std::span<const uint8_t> link_up,
                          std::vector<uint32_t>& switch_slot, uint32_t not_a_switch) {
  SwitchFabric f;
  const size_t num_nodes = graph.nodes().size();
  switch_slot.assign(num_nodes, not_a_switch);
  for (NodeId n = 0; n < num_nodes; ++n) {
    if (graph.node(n).kind != NodeKind::kSwitch) continue;
    switch_slot[n] = static_cast<uint32_t>(f.node_of.size());
    f.node_of.push_back(n);
  }
  f.nbr_begin.push_back(0);
  f.direct_begin.push_back(0);
  for (const NodeId n : f.node_of) {
    const Node& node = graph.node(n);
    const size_t first_direct = f.direct.size();
    for (uint16_t p = 0; p < node.links.size(); ++p) {
      if (!link_up.empty() && link_up[node.links[p]] == 0) continue;
      const NodeId peer = graph.Peer({n, p}).node;
      if (switch_slot[peer] != not_a_switch) {
        f.nbr_slot.push_back(switch_slot[peer]);
        f.nbr_port.push_back(p);
      } else {
        f.direct.emplace_back(static_cast<uint32_t>(graph.HostIndex(peer)), p);
      }
    }
    std::sort(f.direct.begin() + static_cast<std::ptrdiff_t>(first_direct), f.direct.end());
    f.nbr_begin.push_back(static_cast<uint32_t>(f.nbr_slot.size()));
    f.direct_begin.push_back(static_cast<uint32_t>(f.direct.size()));
  }
  return f;
}

std::vector<Component> GroupDestinations(const Graph& graph, std::span<const uint8_t> link_up,
                                         const std::vector<uint32_t>& switch_slot,
                                         SwitchFabric& f) {
  std::vector<Component> components = FindComponents(f);
  std::vector<std::pair<uint32_t, uint32_t>> attached;  // (component, local index)
  std::vector<uint32_t> key;
  for (uint32_t h = 0; h < graph.num_hosts(); ++h) {
    const NodeId n = graph.hosts()[h];
    attached.clear();
    for (uint16_t p = 0; p < graph.node(n).links.size(); ++p) {
      if (!link_up.empty() && link_up[graph.node(n).links[p]] == 0) continue;
      const uint32_t slot = switch_slot[graph.Peer({n, p}).node];
      if (slot < f.component.size()) attached.emplace_back(f.component[slot], f.local[slot]);
    }
    std::sort(attached.begin(), attached.end());
    attached.erase(std::unique(attached.begin(), attached.end()), attached.end());
    for (size_t i = 0; i < attached.size();) {
      const uint32_t c = attached[i].first;
      key.clear();
      for (; i < attached.size() && attached[i].first == c; ++i) key.push_back(attached[i].second);
      components[c].Add(h, key);
    }
  }
  for (Component& c : components) c.Finish(static_cast<uint32_t>(graph.num_hosts()));
  return components;
}

}  // namespace fe::topo::internal
