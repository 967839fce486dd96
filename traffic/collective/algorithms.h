// The algorithms behind AppendCollective, one file each. Every one lays out one operation over
// `hosts` (by rank position) with `gates` in (by position, or empty), appends it to `w` as
// operation context.op and returns each position's gate out. Arguments are checked by
// AppendCollective before it calls them.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "traffic/collective/builder.h"
#include "traffic/collective/collective.h"
#include "traffic/workload.h"

namespace fe {

// The parameters every algorithm reads, for one set of ranks.
struct AlgorithmArgs {
  CollectiveKind kind = CollectiveKind::kAllReduce;
  std::span<const uint32_t> hosts;
  std::span<const RankGate> gates;
  uint64_t size_bytes = 0;
  uint32_t channels = 1;
  uint64_t chunk_bytes = kDefaultChunkBytes;
  uint32_t root = 0;
};

// The smallest size the algorithm can split into messages of a byte or more, with one channel.
uint64_t MinimumBytes(CollectiveKind kind, CollectiveAlgorithm algorithm, uint32_t ranks);
// The channels actually used: at most `channels`, and few enough that every message keeps a byte.
uint32_t UsableChannels(CollectiveKind kind, CollectiveAlgorithm algorithm, uint32_t ranks,
                        uint64_t size_bytes, uint32_t channels);

// Chunks a slice is cut into: slices of smallest_slice bytes or one more come out in chunks of
// about chunk_bytes, each of a byte or more.
uint64_t ChunksOf(uint64_t smallest_slice, uint64_t chunk_bytes);

// Ring: AllReduce (reduce-scatter then all-gather, 2(N-1) steps), ReduceScatter and AllGather
// (N-1 steps), Broadcast (a pipelined chain from the root).
std::vector<RankGate> AppendRing(const AlgorithmArgs& a, const OpContext& c, Workload* w);
// NCCL's double binary tree: AllReduce (reduce up, broadcast down) and Broadcast.
std::vector<RankGate> AppendDoubleTree(const AlgorithmArgs& a, const OpContext& c, Workload* w);
// Recursive halving (reduce-scatter) and doubling (all-gather): AllReduce, ReduceScatter,
// AllGather.
std::vector<RankGate> AppendHalvingDoubling(const AlgorithmArgs& a, const OpContext& c,
                                            Workload* w);
// Every pair at once: AllToAll, and SendRecv (rank 0 to rank 1).
std::vector<RankGate> AppendDirect(const AlgorithmArgs& a, const OpContext& c, Workload* w);
// Inside each locality group by ring, across groups by `across_algorithm` (HasAcrossAlgorithm),
// inside again by ring. The groups must pass CheckHierarchicalGroups.
std::vector<RankGate> AppendHierarchical(const AlgorithmArgs& a,
                                         std::span<const uint32_t> group_of_rank,
                                         CollectiveAlgorithm across_algorithm, const OpContext& c,
                                         Workload* w);
// Groups of equal sizes, or why not.
Status CheckHierarchicalGroups(std::span<const uint32_t> group_of_rank);

}  // namespace fe
