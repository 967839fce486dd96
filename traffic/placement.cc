#include "traffic/placement.h"

#include <algorithm>
#include <map>
#include <utility>

#include "core/random.h"

namespace fe {
namespace {

std::vector<uint32_t> TopologyAware(std::span<const uint32_t> candidates, uint32_t count,
                                    std::span<const uint32_t> group_of_host) {
  if (count == 0) return {};
  std::map<uint32_t, std::vector<uint32_t>> by_group;
  for (const uint32_t h : candidates) by_group[group_of_host[h]].push_back(h);
  std::vector<std::vector<uint32_t>> groups;
  for (auto& [group, hosts] : by_group) {
    std::sort(hosts.begin(), hosts.end());
    groups.push_back(std::move(hosts));
  }
  // Fullest groups first; among equals, the lowest hosts.
  std::stable_sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
    return a.size() != b.size() ? a.size() > b.size() : a.front() < b.front();
  });
  size_t taken = 0, used = 0;
  while (taken < count) taken += groups[used++].size();
  groups.resize(used);
  const size_t last_keeps = groups.back().size() - (taken - count);
  groups.back().resize(last_keeps);
  std::sort(groups.begin(), groups.end(),
            [](const auto& a, const auto& b) { return a.front() < b.front(); });
  std::vector<uint32_t> ranks;
  for (const std::vector<uint32_t>& g : groups) ranks.insert(ranks.end(), g.begin(), g.end());
  return ranks;
}

}  // namespace

std::vector<uint32_t> PlaceRanks(Placement placement, std::span<const uint32_t> candidates,
                                 uint32_t count, std::span<const uint32_t> group_of_host,
                                 uint64_t seed) {
  std::vector<uint32_t> hosts(candidates.begin(), candidates.end());
  switch (placement) {
    case Placement::kLinear:
      break;
    case Placement::kRandom: {
      Random rng(seed);
      // Fisher-Yates, front to back: the first `count` are a uniform draw in uniform order.
      for (uint32_t i = 0; i < count && i + 1 < hosts.size(); ++i) {
        const auto j = i + static_cast<uint32_t>(rng.NextBelow(hosts.size() - i));
        std::swap(hosts[i], hosts[j]);
      }
      break;
    }
    case Placement::kTopologyAware:
      return TopologyAware(candidates, count, group_of_host);
  }
  hosts.resize(count);
  return hosts;
}

}  // namespace fe
