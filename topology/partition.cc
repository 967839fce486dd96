#include "topology/partition.h"

#include <algorithm>
#include <numeric>

namespace fe::topo {

namespace {

constexpr uint32_t kNoGroup = UINT32_MAX;

// The group of every node, numbered in order of first appearance.
std::vector<uint32_t> GroupNodes(const Graph& graph) {
  const std::vector<Node>& nodes = graph.nodes();
  std::vector<uint32_t> group(nodes.size(), kNoGroup);
  std::vector<uint32_t> group_of_pod;
  uint32_t groups = 0;
  const auto pod_group = [&](int32_t pod) {
    const auto p = static_cast<size_t>(pod);
    if (p >= group_of_pod.size()) group_of_pod.resize(p + 1, kNoGroup);
    if (group_of_pod[p] == kNoGroup) group_of_pod[p] = groups++;
    return group_of_pod[p];
  };
  for (NodeId n = 0; n < nodes.size(); ++n) {
    if (group[n] != kNoGroup) continue;
    if (nodes[n].pod >= 0) {
      group[n] = pod_group(nodes[n].pod);
      continue;
    }
    if (nodes[n].kind == NodeKind::kHost && !nodes[n].links.empty()) {
      // A host outside pods joins the switch it hangs from (with that switch's pod, if any).
      const NodeId sw = graph.Peer(PortRef{n, 0}).node;
      if (group[sw] == kNoGroup)
        group[sw] = nodes[sw].pod >= 0 ? pod_group(nodes[sw].pod) : groups++;
      group[n] = group[sw];
      continue;
    }
    group[n] = groups++;
  }
  return group;
}

}  // namespace

std::vector<uint32_t> PartitionNodes(const Graph& graph, uint32_t parts) {
  const std::vector<Node>& nodes = graph.nodes();
  if (parts <= 1) return std::vector<uint32_t>(nodes.size(), 0);
  const std::vector<uint32_t> group = GroupNodes(graph);
  const uint32_t groups = group.empty() ? 0 : *std::max_element(group.begin(), group.end()) + 1;
  std::vector<uint64_t> weight(groups, 0);
  for (NodeId n = 0; n < nodes.size(); ++n) weight[group[n]] += nodes[n].links.size();
  std::vector<uint32_t> order(groups);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return weight[a] > weight[b]; });
  std::vector<uint64_t> load(parts, 0);
  std::vector<uint32_t> part_of_group(groups, 0);
  for (const uint32_t g : order) {
    const auto lightest =
        static_cast<uint32_t>(std::min_element(load.begin(), load.end()) - load.begin());
    part_of_group[g] = lightest;
    load[lightest] += weight[g];
  }
  std::vector<uint32_t> part(nodes.size());
  for (NodeId n = 0; n < nodes.size(); ++n) part[n] = part_of_group[group[n]];
  return part;
}

}  // namespace fe::topo
