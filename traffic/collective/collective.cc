#include "traffic/collective/collective.h"

#include <algorithm>
#include <string>

#include "traffic/collective/algorithms.h"

namespace fe {
namespace {

Status CheckSpec(const CollectiveSpec& spec, std::span<const RankGate> start_after) {
  const auto n = static_cast<uint32_t>(spec.ranks.size());
  if (n == 0) return Status::Error("a collective needs at least one rank");
  if (!HasAlgorithm(spec.kind, spec.algorithm)) {
    return Status::Error(std::string(CollectiveKindName(spec.kind)) + " has no " +
                         CollectiveAlgorithmName(spec.algorithm) + " algorithm");
  }
  if (spec.kind == CollectiveKind::kSendRecv && n != 2) {
    return Status::Error("a send/recv has two ranks, the sender and the receiver; got " +
                         std::to_string(n));
  }
  std::vector<uint32_t> sorted = spec.ranks;
  std::sort(sorted.begin(), sorted.end());
  if (const auto dup = std::adjacent_find(sorted.begin(), sorted.end()); dup != sorted.end()) {
    return Status::Error("host " + std::to_string(*dup) + " holds two ranks");
  }
  if (!start_after.empty() && start_after.size() != n) {
    return Status::Error("one gate per rank: " + std::to_string(start_after.size()) +
                         " gates for " + std::to_string(n) + " ranks");
  }
  if (spec.channels == 0) return Status::Error("channels must be at least 1");
  if (spec.chunk_bytes == 0) return Status::Error("chunk_bytes must be at least 1");
  if (spec.kind == CollectiveKind::kBroadcast && spec.root >= n) {
    return Status::Error("root " + std::to_string(spec.root) + " is not a rank of " +
                         std::to_string(n));
  }
  if (spec.algorithm == CollectiveAlgorithm::kHierarchical && spec.group_of_rank.size() != n) {
    return Status::Error("hierarchical needs the locality group of every rank: " +
                         std::to_string(spec.group_of_rank.size()) + " for " + std::to_string(n) +
                         " ranks");
  }
  if (spec.algorithm == CollectiveAlgorithm::kHierarchical) {
    if (Status s = CheckHierarchicalGroups(spec.group_of_rank); !s.ok()) return s;
    if (!HasAcrossAlgorithm(spec.kind, spec.across)) {
      return Status::Error(std::string("hierarchical ") + CollectiveKindName(spec.kind) +
                           " has no " + CollectiveAlgorithmName(spec.across) +
                           " phase across groups");
    }
  }
  const uint64_t min_bytes = MinimumBytes(spec.kind, spec.algorithm, n);
  if (n > 1 && spec.size_bytes < min_bytes) {
    return Status::Error("size_bytes " + std::to_string(spec.size_bytes) + " is below the " +
                         std::to_string(min_bytes) + " bytes that give every message of " +
                         CollectiveKindName(spec.kind) + " by " +
                         CollectiveAlgorithmName(spec.algorithm) + " over " + std::to_string(n) +
                         " ranks a byte");
  }
  return Status::Ok();
}

}  // namespace

bool HasAlgorithm(CollectiveKind kind, CollectiveAlgorithm algorithm) {
  using A = CollectiveAlgorithm;
  switch (kind) {
    case CollectiveKind::kAllReduce:
      return algorithm == A::kRing || algorithm == A::kDoubleBinaryTree ||
             algorithm == A::kHalvingDoubling || algorithm == A::kHierarchical;
    case CollectiveKind::kAllGather:
    case CollectiveKind::kReduceScatter:
      return algorithm == A::kRing || algorithm == A::kHalvingDoubling ||
             algorithm == A::kHierarchical;
    case CollectiveKind::kBroadcast:
      return algorithm == A::kRing || algorithm == A::kDoubleBinaryTree ||
             algorithm == A::kHierarchical;
    case CollectiveKind::kAllToAll:
      return algorithm == A::kDirect;
    case CollectiveKind::kSendRecv:
      return algorithm == A::kDirect;
  }
  return false;
}

bool HasAcrossAlgorithm(CollectiveKind kind, CollectiveAlgorithm across) {
  return across != CollectiveAlgorithm::kHierarchical && across != CollectiveAlgorithm::kDirect &&
         HasAlgorithm(kind, across);
}

uint64_t MinimumBytes(CollectiveKind kind, CollectiveAlgorithm algorithm, uint32_t ranks) {
  switch (algorithm) {
    case CollectiveAlgorithm::kRing:
      return kind == CollectiveKind::kBroadcast ? 1 : ranks;  // a byte per slice
    case CollectiveAlgorithm::kDoubleBinaryTree:
      return 2;  // a byte per tree
    case CollectiveAlgorithm::kHalvingDoubling:
    case CollectiveAlgorithm::kHierarchical:
      return ranks;  // a byte per block
    case CollectiveAlgorithm::kDirect:
      return kind == CollectiveKind::kAllToAll ? ranks : 1;
  }
  return ranks;
}

uint32_t UsableChannels(CollectiveKind kind, CollectiveAlgorithm algorithm, uint32_t ranks,
                        uint64_t size_bytes, uint32_t channels) {
  const uint64_t most = size_bytes / MinimumBytes(kind, algorithm, ranks);
  return static_cast<uint32_t>(std::clamp<uint64_t>(most, 1, channels));
}

const char* CollectiveKindName(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::kAllReduce:
      return "all_reduce";
    case CollectiveKind::kAllGather:
      return "all_gather";
    case CollectiveKind::kReduceScatter:
      return "reduce_scatter";
    case CollectiveKind::kAllToAll:
      return "all_to_all";
    case CollectiveKind::kBroadcast:
      return "broadcast";
    case CollectiveKind::kSendRecv:
      return "send_recv";
  }
  return "?";
}

const char* CollectiveAlgorithmName(CollectiveAlgorithm algorithm) {
  switch (algorithm) {
    case CollectiveAlgorithm::kRing:
      return "ring";
    case CollectiveAlgorithm::kDoubleBinaryTree:
      return "double_binary_tree";
    case CollectiveAlgorithm::kHalvingDoubling:
      return "halving_doubling";
    case CollectiveAlgorithm::kHierarchical:
      return "hierarchical";
    case CollectiveAlgorithm::kDirect:
      return "direct";
  }
  return "?";
}

StatusOr<std::vector<RankGate>> AppendCollective(const CollectiveSpec& spec,
                                                 std::span<const RankGate> start_after, Time start,
                                                 Time delay, uint32_t job, uint32_t iteration,
                                                 Workload* w) {
  if (Status s = CheckSpec(spec, start_after); !s.ok()) return s;
  const auto n = static_cast<uint32_t>(spec.ranks.size());
  const uint32_t channels =
      n > 1 ? UsableChannels(spec.kind, spec.algorithm, n, spec.size_bytes, spec.channels) : 1;
  const OpContext context{.op = static_cast<uint32_t>(w->ops.size()),
                          .job = job,
                          .iteration = iteration,
                          .start = start,
                          .delay = delay};
  w->ops.push_back(CollectiveOp{.job = job,
                                .iteration = iteration,
                                .kind = spec.kind,
                                .algorithm = spec.algorithm,
                                .size_bytes = spec.size_bytes,
                                .ranks = n,
                                .channels = channels,
                                .root = spec.root});
  if (n == 1) return std::vector<RankGate>(start_after.begin(), start_after.end());
  const AlgorithmArgs args{.kind = spec.kind,
                           .hosts = spec.ranks,
                           .gates = start_after,
                           .size_bytes = spec.size_bytes,
                           .channels = channels,
                           .chunk_bytes = spec.chunk_bytes,
                           .root = spec.root};
  switch (spec.algorithm) {
    case CollectiveAlgorithm::kRing:
      return AppendRing(args, context, w);
    case CollectiveAlgorithm::kDoubleBinaryTree:
      return AppendDoubleTree(args, context, w);
    case CollectiveAlgorithm::kHalvingDoubling:
      return AppendHalvingDoubling(args, context, w);
    case CollectiveAlgorithm::kDirect:
      return AppendDirect(args, context, w);
    case CollectiveAlgorithm::kHierarchical:
      return AppendHierarchical(args, spec.group_of_rank, spec.across, context, w);
  }
  return Status::Error("unknown algorithm");
}

}  // namespace fe
