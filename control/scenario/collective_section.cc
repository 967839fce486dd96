#include "control/scenario/collective_section.h"

#include <numeric>

#include "core/units.h"
#include "topology/locality.h"
#include "traffic/placement.h"

namespace fe::control {
using fabric_emu::Collective;

Placement PlacementOf(Collective::Placement p) {
  switch (p) {
    case Collective::RANDOM:
      return Placement::kRandom;
    case Collective::TOPOLOGY_AWARE:
      return Placement::kTopologyAware;
    case Collective::LINEAR:
    case Collective::PLACEMENT_UNSPECIFIED:
      break;
  }
  return Placement::kLinear;
}

std::vector<uint64_t> CollectiveSizes(const Collective& c) {
  if (c.size_bytes_size() > 0) return {c.size_bytes().begin(), c.size_bytes().end()};
  std::vector<uint64_t> sizes;
  if (c.min_bytes() < 1 || c.max_bytes() < c.min_bytes() || c.step_factor() < 2) return sizes;
  const auto max = static_cast<uint64_t>(c.max_bytes());
  for (auto s = static_cast<uint64_t>(c.min_bytes()); s <= max; s *= c.step_factor()) {
    sizes.push_back(s);
    if (s > max / static_cast<uint64_t>(c.step_factor())) break;  // the next would pass max
  }
  return sizes;
}

CollectiveKind CollectiveKindOf(Collective::Op op) {
  switch (op) {
    case Collective::ALL_GATHER:
      return CollectiveKind::kAllGather;
    case Collective::REDUCE_SCATTER:
      return CollectiveKind::kReduceScatter;
    case Collective::ALL_TO_ALL:
      return CollectiveKind::kAllToAll;
    case Collective::BROADCAST:
      return CollectiveKind::kBroadcast;
    case Collective::ALL_REDUCE:
    case Collective::OP_UNSPECIFIED:
      break;
  }
  return CollectiveKind::kAllReduce;
}

namespace {

// The algorithm named by `a`, or `unset` for ALGORITHM_UNSPECIFIED.
CollectiveAlgorithm AlgorithmOf(Collective::Algorithm a, CollectiveAlgorithm unset) {
  switch (a) {
    case Collective::RING:
      return CollectiveAlgorithm::kRing;
    case Collective::DOUBLE_BINARY_TREE:
      return CollectiveAlgorithm::kDoubleBinaryTree;
    case Collective::HALVING_DOUBLING:
      return CollectiveAlgorithm::kHalvingDoubling;
    case Collective::HIERARCHICAL:
      return CollectiveAlgorithm::kHierarchical;
    case Collective::DIRECT:
      return CollectiveAlgorithm::kDirect;
    case Collective::ALGORITHM_UNSPECIFIED:
      break;
  }
  return unset;
}

}  // namespace

CollectiveAlgorithm CollectiveAlgorithmOf(const Collective& c) {
  return AlgorithmOf(c.algorithm(), c.op() == Collective::ALL_TO_ALL ? CollectiveAlgorithm::kDirect
                                                                     : CollectiveAlgorithm::kRing);
}

CollectiveAlgorithm AcrossAlgorithmOf(const Collective& c) {
  return AlgorithmOf(c.across_algorithm(), CollectiveAlgorithm::kRing);
}

StatusOr<Workload> CollectiveWorkload(const Collective& c, const topo::Graph& graph, uint64_t seed,
                                      const std::string& /*scenario_dir*/) {
  std::vector<uint32_t> candidates(c.host().begin(), c.host().end());
  if (candidates.empty()) {
    candidates.resize(graph.num_hosts());
    std::iota(candidates.begin(), candidates.end(), 0u);
  }
  for (const uint32_t h : candidates) {
    if (h >= graph.num_hosts()) {
      return Status::Error("host: " + std::to_string(h) + " is not a host of the fabric");
    }
  }
  const auto count =
      c.has_ranks() ? static_cast<uint32_t>(c.ranks()) : static_cast<uint32_t>(candidates.size());
  if (count < 2 || count > candidates.size()) {
    return Status::Error("ranks: " + std::to_string(count) + " ranks on " +
                         std::to_string(candidates.size()) + " hosts");
  }
  const std::vector<uint32_t> group_of_host = topo::LocalityGroups(graph);
  CollectiveSpec spec;
  spec.kind = CollectiveKindOf(c.op());
  spec.algorithm = CollectiveAlgorithmOf(c);
  spec.across = AcrossAlgorithmOf(c);
  spec.ranks = PlaceRanks(PlacementOf(c.placement()), candidates, count, group_of_host, seed);
  for (const uint32_t h : spec.ranks) spec.group_of_rank.push_back(group_of_host[h]);
  spec.channels = static_cast<uint32_t>(c.channels());
  spec.chunk_bytes = static_cast<uint64_t>(c.chunk_bytes());
  spec.root = static_cast<uint32_t>(c.root());
  Workload w;
  w.jobs.push_back(Job{.name = "collective", .kind = "collective"});
  std::vector<RankGate> gates;
  const Time start = Time::FromNs(c.start_ns());
  for (const uint64_t size : CollectiveSizes(c)) {
    spec.size_bytes = size;
    for (int i = 0; i < c.iterations(); ++i) {
      StatusOr<std::vector<RankGate>> next =
          AppendCollective(spec, gates, start, Time::Zero(), 0, kNoIndex, &w);
      if (!next.ok()) return next.status();
      gates = std::move(next).value();
    }
  }
  return w;
}

}  // namespace fe::control
