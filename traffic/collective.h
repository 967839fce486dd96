// Collective operations as messages with dependencies, the way NCCL runs them: AllReduce,
// AllGather, ReduceScatter, AllToAll and Broadcast over ranks (endpoints), by ring, double binary
// tree, recursive halving-doubling or hierarchically (inside locality groups first), chunked and
// spread over channels (rings in parallel on distinct QPs).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/status.h"
#include "core/units.h"
#include "traffic/workload.h"

namespace fe {

struct CollectiveSpec {
  CollectiveKind kind = CollectiveKind::kAllReduce;
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::kRing;
  std::vector<uint32_t> ranks;  // host index of each rank, in rank order
  uint64_t size_bytes = 0;      // nccl-tests' size (CollectiveOp::size_bytes)
  uint32_t channels = 1;
  // Hierarchical: the locality group of each rank (scale-up domain, server, ToR or rail); ranks
  // of one group exchange inside it first.
  std::vector<uint32_t> group_of_rank;
  uint32_t root = 0;  // Broadcast: the rank whose buffer is sent
};

// The messages a rank waits for before it may start (empty: none).
using RankGate = std::vector<uint32_t>;

// Appends one operation to `w` as a CollectiveOp of `job` (and `iteration`, or kNoIndex) and its
// messages. Rank r sends nothing before `start`, nor before the messages of start_after[r] (empty
// span: none) are delivered plus `delay`. Returns, by rank, the messages whose delivery completes
// the operation at that rank: the gate of whatever follows.
StatusOr<std::vector<RankGate>> AppendCollective(const CollectiveSpec& spec,
                                                 std::span<const RankGate> start_after, Time start,
                                                 Time delay, uint32_t job, uint32_t iteration,
                                                 Workload* w);

}  // namespace fe
