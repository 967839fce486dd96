// Hierarchical collectives: the ranks of one locality group (a scale-up domain, else the ranks
// behind one leaf or rail switch) exchange inside it, and only one rank per group and slice
// crosses the fabric's upper tiers. With G groups of L ranks, rank l of a group is "local rank l";
// the local ranks l of all groups form across-group set l. The phases inside the groups are rings;
// the phase across them is a ring too unless `across_algorithm` says otherwise (a double binary
// tree or halving-doubling, of the same kind, over each across-group set). With a ring:
// - AllReduce: ReduceScatter inside each group (rank l ends with slice l of the group's sum),
//   AllReduce of that 1/L slice across set l, AllGather inside each group. Each rank sends
//   2(N-1)/N of the buffer, as a flat ring does, but only 2(G-1)/N of it leaves the group.
// - ReduceScatter: inside, then across on the 1/L slice. AllGather: across on the rank's block,
//   then inside on the group's blocks (gathering across first keeps the cross-group bytes at
//   (G-1)/N of the buffer).
// - Broadcast: a chain across the groups' ranks with the root's local index, then a chain inside
//   each group from that rank.
// A ring takes 2(G-1) steps across G groups, each of N messages or more: 2.6 billion for 12,800
// groups of 8. A double binary tree sends 2(G-1) messages per chunk and tree over a set (up and
// down), each rank about 2S/L as on the ring, in 2 log2 G steps.
// A phase starts at a rank once the previous phase is done there (its gate). Groups must have
// equal sizes: the across-group sets pair the groups' ranks one to one.
#include <map>
#include <string>

#include "traffic/collective/algorithms.h"

namespace fe {
namespace {

// Runs a phase by `algorithm` over the positions `members` of the operation, updating their gates.
void Phase(const AlgorithmArgs& a, CollectiveKind kind, CollectiveAlgorithm algorithm,
           uint64_t size_bytes, uint32_t root, const std::vector<uint32_t>& members,
           std::vector<RankGate>& gates, const OpContext& c, Workload* w) {
  if (members.size() < 2) return;
  std::vector<uint32_t> hosts;
  std::vector<RankGate> sub_gates;
  for (const uint32_t m : members) {
    hosts.push_back(a.hosts[m]);
    sub_gates.push_back(gates[m]);
  }
  const auto n = static_cast<uint32_t>(members.size());
  AlgorithmArgs sub = a;
  sub.kind = kind;
  sub.hosts = hosts;
  sub.gates = sub_gates;
  sub.size_bytes = size_bytes;
  sub.root = root;
  sub.channels = UsableChannels(kind, algorithm, n, size_bytes, a.channels);
  const std::vector<RankGate> out =
      algorithm == CollectiveAlgorithm::kDoubleBinaryTree  ? AppendDoubleTree(sub, c, w)
      : algorithm == CollectiveAlgorithm::kHalvingDoubling ? AppendHalvingDoubling(sub, c, w)
                                                           : AppendRing(sub, c, w);
  for (uint32_t i = 0; i < n; ++i) gates[members[i]] = out[i];
}

}  // namespace

Status CheckHierarchicalGroups(std::span<const uint32_t> group_of_rank) {
  std::map<uint32_t, uint32_t> size_of_group;
  for (const uint32_t g : group_of_rank) ++size_of_group[g];
  for (const auto& [group, size] : size_of_group) {
    if (size != size_of_group.begin()->second) {
      return Status::Error("hierarchical needs locality groups of equal size: the ranks fall in " +
                           std::to_string(size_of_group.size()) + " groups, of " +
                           std::to_string(size_of_group.begin()->second) + " and of " +
                           std::to_string(size) + " ranks");
    }
  }
  return Status::Ok();
}

std::vector<RankGate> AppendHierarchical(const AlgorithmArgs& a,
                                         std::span<const uint32_t> group_of_rank,
                                         CollectiveAlgorithm across_algorithm, const OpContext& c,
                                         Workload* w) {
  const auto n = static_cast<uint32_t>(a.hosts.size());
  std::map<uint32_t, uint32_t> index_of_group;  // group id -> order of first appearance
  std::vector<std::vector<uint32_t>> inside;    // by group: its ranks, in rank order
  std::vector<uint32_t> local(n);
  for (uint32_t r = 0; r < n; ++r) {
    const auto [it, added] =
        index_of_group.emplace(group_of_rank[r], static_cast<uint32_t>(inside.size()));
    if (added) inside.emplace_back();
    local[r] = static_cast<uint32_t>(inside[it->second].size());
    inside[it->second].push_back(r);
  }
  const auto l_size = static_cast<uint32_t>(inside[0].size());
  std::vector<std::vector<uint32_t>> across(l_size);  // by local rank: one rank of every group
  for (const std::vector<uint32_t>& g : inside) {
    for (uint32_t l = 0; l < l_size; ++l) across[l].push_back(g[l]);
  }
  std::vector<RankGate> gates = a.gates.empty()
                                    ? std::vector<RankGate>(n)
                                    : std::vector<RankGate>(a.gates.begin(), a.gates.end());
  const uint64_t s = a.size_bytes;
  const auto each_inside = [&](CollectiveKind kind, uint64_t bytes) {
    for (const std::vector<uint32_t>& g : inside) {
      Phase(a, kind, CollectiveAlgorithm::kRing, bytes, 0, g, gates, c, w);
    }
  };
  const auto each_across = [&](CollectiveKind kind, auto bytes_of_local) {
    for (uint32_t l = 0; l < l_size; ++l) {
      Phase(a, kind, across_algorithm, bytes_of_local(l), 0, across[l], gates, c, w);
    }
  };
  const auto slice = [&](uint32_t l) { return Share(s, l_size, l); };
  switch (a.kind) {
    case CollectiveKind::kAllReduce:
      each_inside(CollectiveKind::kReduceScatter, s);
      each_across(CollectiveKind::kAllReduce, slice);
      each_inside(CollectiveKind::kAllGather, s);
      break;
    case CollectiveKind::kReduceScatter:
      each_inside(CollectiveKind::kReduceScatter, s);
      each_across(CollectiveKind::kReduceScatter, slice);
      break;
    case CollectiveKind::kAllGather:
      each_across(CollectiveKind::kAllGather, slice);
      each_inside(CollectiveKind::kAllGather, s);
      break;
    case CollectiveKind::kBroadcast: {
      const uint32_t l = local[a.root];
      const uint32_t root_group = index_of_group[group_of_rank[a.root]];
      Phase(a, CollectiveKind::kBroadcast, across_algorithm, s, root_group, across[l], gates, c, w);
      for (const std::vector<uint32_t>& g : inside) {
        Phase(a, CollectiveKind::kBroadcast, CollectiveAlgorithm::kRing, s, l, g, gates, c, w);
      }
      break;
    }
    case CollectiveKind::kAllToAll:
    case CollectiveKind::kSendRecv:
      break;
  }
  return gates;
}

}  // namespace fe
