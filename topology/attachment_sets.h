// What RouteTable::Build searches from: the live switch graph, split into its connected
// components, and per component the distinct sets of its switches that destination hosts attach
// to ("keys"), with the runs of consecutive destinations that share one. Hosts never forward, so
// a destination's distances over a component's switches depend on its key alone.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "topology/graph.h"

namespace fe::topo::internal {

inline constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

template <typename T>
struct VectorHash {
  size_t operator()(const std::vector<T>& v) const {
    uint64_t h = v.size();
    for (T x : v) h = (h ^ static_cast<uint64_t>(x)) * 0x100000001b3ULL;  // FNV-1a style step
    return static_cast<size_t>(h ^ (h >> 29));
  }
};
template <typename T>
using VectorIds = std::unordered_map<std::vector<T>, uint32_t, VectorHash<T>>;

// The live links between switches and from switches to hosts, by dense switch slot.
struct SwitchFabric {
  std::vector<NodeId> node_of;         // by slot
  std::vector<uint32_t> nbr_begin;     // by slot, one extra: its entries in nbr_slot/nbr_port
  std::vector<uint32_t> nbr_slot;      // the peer switch
  std::vector<uint16_t> nbr_port;      // the local port leading to it
  std::vector<uint32_t> direct_begin;  // by slot, one extra
  std::vector<std::pair<uint32_t, uint16_t>> direct;  // (host index, port), ascending
  std::vector<uint32_t> component;                    // by slot
  std::vector<uint32_t> local;  // by slot: index among its component's switches
};

// One connected component of the switch graph and the destinations that attach to it.
struct Component {
  std::vector<uint32_t> slots;              // ascending; a switch's local index is its position
  std::vector<std::vector<uint32_t>> keys;  // the local indices a set of destinations attaches to
  VectorIds<uint32_t> key_ids;
  // Consecutive destinations with one key (kNone: attached elsewhere), by first destination.
  std::vector<std::pair<uint32_t, uint32_t>> runs;
  uint32_t next_dst = 0;  // the first destination not yet in runs

  // Destinations arrive in ascending order; those between them attach elsewhere.
  void Add(uint32_t dst, const std::vector<uint32_t>& key);
  void Finish(uint32_t num_hosts);
};

// Indexes the switches (switch_slot[node]: the dense slot, or not_a_switch) and their live links.
SwitchFabric LinkSwitches(const Graph& graph, std::span<const uint8_t> link_up,
                          std::vector<uint32_t>& switch_slot, uint32_t not_a_switch);

// Finds the components of the switch graph (filling f.component and f.local) and gives every
// destination its key in each component it attaches to over a live link.
std::vector<Component> GroupDestinations(const Graph& graph, std::span<const uint8_t> link_up,
                                         const std::vector<uint32_t>& switch_slot, SwitchFabric& f);

}  // namespace fe::topo::internal
