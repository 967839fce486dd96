// Rank placement: which hosts a job's ranks run on and in what rank order. Rings send from each
// rank to the next, so the order decides which links a ring crosses: on an oversubscribed fabric a
// ring whose neighbours share a leaf sends one message per leaf up the fabric, where a scattered
// order sends one per rank.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace fe {

enum class Placement : uint8_t {
  kLinear,         // the candidates in their order
  kRandom,         // a uniform draw from the seed: what a scheduler that ignores the fabric does
  kTopologyAware,  // locality groups filled one after another: neighbours share a group
};

// Chooses `count` of `candidates` (host indices, distinct, count <= candidates.size()) and returns
// them in rank order. group_of_host: the locality group of every host (topo::LocalityGroups).
// Topology-aware takes the groups holding the most candidates first (so a job spans as few groups
// as it can), then orders the chosen groups by their lowest host index (builders number hosts
// along the fabric, so neighbouring groups tend to share a pod) and the hosts of each group by
// index: a ring then leaves each group once. Deterministic for a seed.
std::vector<uint32_t> PlaceRanks(Placement placement, std::span<const uint32_t> candidates,
                                 uint32_t count, std::span<const uint32_t> group_of_host,
                                 uint64_t seed);

}  // namespace fe
