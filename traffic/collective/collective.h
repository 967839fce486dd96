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

inline constexpr uint64_t kDefaultChunkBytes = 512 * 1024;

struct CollectiveSpec {
  CollectiveKind kind = CollectiveKind::kAllReduce;
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::kRing;
  std::vector<uint32_t> ranks;  // host index of each rank, in rank order
  uint64_t size_bytes = 0;      // nccl-tests' size (CollectiveOp::size_bytes)
  // Rings (or tree pairs) in parallel, each carrying its share of the bytes in messages of its
  // own, hence its own queue pairs and ECMP entropy.
  uint32_t channels = 1;
  // Each rank's slice of a channel is cut into chunks of at most this many bytes that go through
  // the algorithm's steps independently (chunk c of step k waits for chunk c of step k - 1, not
  // for the other chunks). A Broadcast hop or a tree edge sends its chunks in turn, chunk c after
  // its chunk c - 1 has arrived, so that the first reaches the next rank early.
  // NCCL's default: its 4 MiB buffer in 8 steps.
  uint64_t chunk_bytes = kDefaultChunkBytes;
  // Hierarchical: the locality group of each rank (scale-up domain, server, ToR or rail); ranks
  // of one group exchange inside it first.
  std::vector<uint32_t> group_of_rank;
  // Hierarchical: the algorithm of the phase across the groups (ring, double binary tree or
  // halving-doubling, as the kind has them).
  CollectiveAlgorithm across = CollectiveAlgorithm::kRing;
  uint32_t root = 0;  // Broadcast: the rank whose buffer is sent
};

// Names as the scenario and the reports spell them: "all_reduce", "ring", ...
const char* CollectiveKindName(CollectiveKind kind);
const char* CollectiveAlgorithmName(CollectiveAlgorithm algorithm);

// Whether `kind` can run by `algorithm`: ring for all but AllToAll; double binary tree for
// AllReduce and Broadcast; halving-doubling for AllReduce, AllGather and ReduceScatter;
// hierarchical for all but AllToAll; direct for AllToAll (and SendRecv) only.
bool HasAlgorithm(CollectiveKind kind, CollectiveAlgorithm algorithm);
// Whether a hierarchical `kind` can run its phase across the groups by `across`: the kind's own
// ring, double binary tree or halving-doubling (its across phase is an operation of the same kind).
bool HasAcrossAlgorithm(CollectiveKind kind, CollectiveAlgorithm across);

// The messages a rank waits for before it may start (empty: none).
using RankGate = std::vector<uint32_t>;

// Appends one operation to `w` as a CollectiveOp of `job` (and `iteration`, or kNoIndex) and its
// messages. Rank r sends nothing before `start`, nor before the messages of start_after[r] (empty
// span: none) are delivered plus `delay`. Returns, by rank, the messages whose delivery completes
// the operation at that rank (it holds its result and its own messages have arrived): the gate of
// whatever follows. A single rank moves nothing: the op is recorded and the gates pass through.
// Errors: an algorithm the kind does not have, a size too small to give every message a byte,
// repeated hosts, gates or groups not one per rank, hierarchical groups of unequal sizes or an
// across-group algorithm the kind does not have.
StatusOr<std::vector<RankGate>> AppendCollective(const CollectiveSpec& spec,
                                                 std::span<const RankGate> start_after, Time start,
                                                 Time delay, uint32_t job, uint32_t iteration,
                                                 Workload* w);

}  // namespace fe
