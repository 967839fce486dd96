// RouteTable::Build without a search per destination host.
//
// Hosts never forward, so a destination's distance over the switches depends only on the set of
// switches it attaches to, and within one connected component of the live switch graph only on
// the part of that set inside it. A k-ary fat-tree's k^3/4 hosts then need k^2/2 searches (one
// per edge switch), and a rail-optimised fabric with scale-up domains, where every endpoint has a
// set of its own (its rail switch and its domain's scale-up switches), needs one search per rail
// switch in the scale-out component and a trivial one per scale-up switch. The searches of a
// component run 64 sets at a time, one bit each, over its adjacency; a switch's group for a set
// is then the mask of ports whose peer lies one hop closer, compared as whole words. A switch
// finally walks its component's destinations in runs of consecutive hosts with the same set,
// except the hosts on its own ports, which get their own direct ports one by one.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "topology/routes.h"

namespace fe::topo {
namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

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

  void Add(uint32_t dst, const std::vector<uint32_t>& key) {
    uint32_t id;
    if (!runs.empty() && runs.back().second != kNone && next_dst == dst &&
        keys[runs.back().second] == key) {
      id = runs.back().second;
    } else {
      const auto [it, fresh] = key_ids.emplace(key, static_cast<uint32_t>(keys.size()));
      if (fresh) keys.push_back(key);
      id = it->second;
    }
    if (dst > next_dst) runs.emplace_back(next_dst, kNone);
    if (runs.empty() || runs.back().second != id || next_dst != dst) runs.emplace_back(dst, id);
    next_dst = dst + 1;
  }
  void Finish(uint32_t num_hosts) {
    if (next_dst < num_hosts) runs.emplace_back(next_dst, kNone);
  }
};

// One switch's routes as Build lays them out: runs name groups in order of first use.
struct SwitchRoutesOut {
  std::vector<std::pair<uint32_t, uint32_t>> runs;  // (first destination, group)
  std::vector<uint32_t> group_size;
  std::vector<uint16_t> ports;
};

SwitchFabric LinkSwitches(const Graph& graph, std::span<const uint8_t> link_up,
                          std::vector<uint32_t>& switch_slot, uint32_t not_a_switch) {
  SwitchFabric f;
  const size_t num_nodes = graph.nodes().size();
  switch_slot.assign(num_nodes, not_a_switch);
  for (NodeId n = 0; n < num_nodes; ++n) {
    if (graph.node(n).kind != NodeKind::kSwitch) continue;
    switch_slot[n] = static_cast<uint32_t>(f.node_of.size());
    f.node_of.push_back(n);
  }
  f.nbr_begin.push_back(0);
  f.direct_begin.push_back(0);
  for (const NodeId n : f.node_of) {
    const Node& node = graph.node(n);
    const size_t first_direct = f.direct.size();
    for (uint16_t p = 0; p < node.links.size(); ++p) {
      if (!link_up.empty() && link_up[node.links[p]] == 0) continue;
      const NodeId peer = graph.Peer({n, p}).node;
      if (switch_slot[peer] != not_a_switch) {
        f.nbr_slot.push_back(switch_slot[peer]);
        f.nbr_port.push_back(p);
      } else {
        f.direct.emplace_back(static_cast<uint32_t>(graph.HostIndex(peer)), p);
      }
    }
    std::sort(f.direct.begin() + static_cast<std::ptrdiff_t>(first_direct), f.direct.end());
    f.nbr_begin.push_back(static_cast<uint32_t>(f.nbr_slot.size()));
    f.direct_begin.push_back(static_cast<uint32_t>(f.direct.size()));
  }
  return f;
}

// Labels the components of the switch graph; returns them with their switches.
std::vector<Component> FindComponents(SwitchFabric& f) {
  const auto num_slots = static_cast<uint32_t>(f.node_of.size());
  std::vector<Component> components;
  f.component.assign(num_slots, kNone);
  f.local.assign(num_slots, 0);
  std::vector<uint32_t> queue;
  for (uint32_t root = 0; root < num_slots; ++root) {
    if (f.component[root] != kNone) continue;
    const auto c = static_cast<uint32_t>(components.size());
    f.component[root] = c;
    queue.assign(1, root);
    for (size_t head = 0; head < queue.size(); ++head) {
      for (uint32_t i = f.nbr_begin[queue[head]]; i < f.nbr_begin[queue[head] + 1]; ++i) {
        if (f.component[f.nbr_slot[i]] == kNone) {
          f.component[f.nbr_slot[i]] = c;
          queue.push_back(f.nbr_slot[i]);
        }
      }
    }
    std::sort(queue.begin(), queue.end());
    for (uint32_t i = 0; i < queue.size(); ++i) f.local[queue[i]] = i;
    components.emplace_back().slots = queue;
  }
  return components;
}

// Gives every destination its key in each component it attaches to.
void AttachHosts(const Graph& graph, std::span<const uint8_t> link_up,
                 const std::vector<uint32_t>& switch_slot, const SwitchFabric& f,
                 std::vector<Component>& components) {
  std::vector<std::pair<uint32_t, uint32_t>> attached;  // (component, local index)
  std::vector<uint32_t> key;
  for (uint32_t h = 0; h < graph.num_hosts(); ++h) {
    const NodeId n = graph.hosts()[h];
    attached.clear();
    for (uint16_t p = 0; p < graph.node(n).links.size(); ++p) {
      if (!link_up.empty() && link_up[graph.node(n).links[p]] == 0) continue;
      const uint32_t slot = switch_slot[graph.Peer({n, p}).node];
      if (slot < f.component.size()) attached.emplace_back(f.component[slot], f.local[slot]);
    }
    std::sort(attached.begin(), attached.end());
    attached.erase(std::unique(attached.begin(), attached.end()), attached.end());
    for (size_t i = 0; i < attached.size();) {
      const uint32_t c = attached[i].first;
      key.clear();
      for (; i < attached.size() && attached[i].first == c; ++i) key.push_back(attached[i].second);
      components[c].Add(h, key);
    }
  }
  for (Component& c : components) c.Finish(static_cast<uint32_t>(graph.num_hosts()));
}

// Hops from every switch of the component to every key, as dist[local * num_keys + key]; the
// keys' own switches are at 0. Breadth-first from 64 keys at once, one bit per key.
template <typename Dist>
std::vector<Dist> KeyDistances(const SwitchFabric& f, const Component& c) {
  const size_t num_sw = c.slots.size();
  const size_t num_keys = c.keys.size();
  std::vector<Dist> dist(num_sw * num_keys, std::numeric_limits<Dist>::max());
  std::vector<uint32_t> nbr_begin(num_sw + 1, 0);
  std::vector<uint32_t> nbr;
  for (size_t i = 0; i < num_sw; ++i) {
    const uint32_t slot = c.slots[i];
    for (uint32_t j = f.nbr_begin[slot]; j < f.nbr_begin[slot + 1]; ++j) {
      nbr.push_back(f.local[f.nbr_slot[j]]);
    }
    nbr_begin[i + 1] = static_cast<uint32_t>(nbr.size());
  }
  std::vector<uint64_t> visited(num_sw), frontier(num_sw), next(num_sw);
  for (size_t base = 0; base < num_keys; base += 64) {
    const size_t batch = std::min<size_t>(64, num_keys - base);
    const uint64_t all = batch == 64 ? ~uint64_t{0} : (uint64_t{1} << batch) - 1;
    std::fill(visited.begin(), visited.end(), 0);
    std::fill(frontier.begin(), frontier.end(), 0);
    for (size_t b = 0; b < batch; ++b) {
      for (const uint32_t sw : c.keys[base + b]) {
        visited[sw] |= uint64_t{1} << b;
        frontier[sw] |= uint64_t{1} << b;
        dist[sw * num_keys + base + b] = 0;
      }
    }
    for (Dist level = 1;; ++level) {
      bool grew = false;
      for (size_t v = 0; v < num_sw; ++v) {
        uint64_t reached = 0;
        if (visited[v] != all) {
          for (uint32_t j = nbr_begin[v]; j < nbr_begin[v + 1]; ++j) reached |= frontier[nbr[j]];
          reached &= ~visited[v];
        }
        next[v] = reached;
      }
      for (size_t v = 0; v < num_sw; ++v) {
        if (next[v] == 0) continue;
        grew = true;
        visited[v] |= next[v];
        for (uint64_t bits = next[v]; bits != 0; bits &= bits - 1) {
          dist[v * num_keys + base + std::countr_zero(bits)] = level;
        }
      }
      if (!grew) break;
      frontier.swap(next);
    }
  }
  return dist;
}

// Interns one switch's groups while its runs are laid out, and renumbers them by first use.
class GroupInterner {
 public:
  void Reset() {
    masks_.clear();
    directs_.clear();
    group_ports_.clear();
    group_end_.clear();
    none_ = kNone;
  }
  uint32_t None() {
    if (none_ == kNone) none_ = NewGroup();
    return none_;
  }
  // The ports set in `mask` (one bit per local port, 64 a word).
  uint32_t Mask(const std::vector<uint64_t>& mask) {
    const auto [it, fresh] = masks_.emplace(mask, static_cast<uint32_t>(group_end_.size()));
    if (fresh) {
      for (size_t w = 0; w < mask.size(); ++w) {
        for (uint64_t bits = mask[w]; bits != 0; bits &= bits - 1) {
          group_ports_.push_back(static_cast<uint16_t>(64 * w + std::countr_zero(bits)));
        }
      }
      NewGroup();
    }
    return it->second;
  }
  uint32_t Direct(const std::vector<uint16_t>& ports) {
    const auto [it, fresh] = directs_.emplace(ports, static_cast<uint32_t>(group_end_.size()));
    if (fresh) {
      group_ports_.insert(group_ports_.end(), ports.begin(), ports.end());
      NewGroup();
    }
    return it->second;
  }
  // Runs of (first destination, interned group) become the switch's routes.
  void LayOut(const std::vector<std::pair<uint32_t, uint32_t>>& runs, SwitchRoutesOut& out) {
    std::vector<uint32_t> renamed(group_end_.size(), kNone);
    for (const auto& [first_dst, group] : runs) {
      if (renamed[group] == kNone) {
        renamed[group] = static_cast<uint32_t>(out.group_size.size());
        const uint32_t begin = group == 0 ? 0 : group_end_[group - 1];
        out.group_size.push_back(group_end_[group] - begin);
        out.ports.insert(out.ports.end(), group_ports_.begin() + begin,
                         group_ports_.begin() + group_end_[group]);
      }
      out.runs.emplace_back(first_dst, renamed[group]);
    }
  }

 private:
  uint32_t NewGroup() {
    group_end_.push_back(static_cast<uint32_t>(group_ports_.size()));
    return static_cast<uint32_t>(group_end_.size() - 1);
  }
  VectorIds<uint64_t> masks_;
  VectorIds<uint16_t> directs_;
  std::vector<uint16_t> group_ports_;
  std::vector<uint32_t> group_end_;
  uint32_t none_ = kNone;
};

template <typename Dist>
void RouteComponent(const Graph& graph, const SwitchFabric& f, const Component& c,
                    std::vector<SwitchRoutesOut>& out, uint32_t& max_switch_hops) {
  const size_t num_keys = c.keys.size();
  const std::vector<Dist> dist = KeyDistances<Dist>(f, c);

  // A source enters the component at a switch of some key; from there the path crosses
  // dist + 1 switches to any other key.
  std::vector<uint32_t> entries;
  for (const std::vector<uint32_t>& key : c.keys)
    entries.insert(entries.end(), key.begin(), key.end());
  std::sort(entries.begin(), entries.end());
  entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
  for (const uint32_t sw : entries) {
    for (size_t k = 0; k < num_keys; ++k) {
      max_switch_hops = std::max<uint32_t>(max_switch_hops, dist[sw * num_keys + k] + 1u);
    }
  }

  GroupInterner groups;
  std::vector<uint64_t> masks, mask;
  std::vector<uint32_t> group_of_key(num_keys);
  std::vector<std::pair<uint32_t, uint32_t>> runs;
  std::vector<uint16_t> ports;
  for (uint32_t sw = 0; sw < c.slots.size(); ++sw) {
    const uint32_t slot = c.slots[sw];
    const size_t words = (graph.node(f.node_of[slot]).links.size() + 63) / 64;
    // Bit p of key k's mask: port p leads one hop closer to key k.
    masks.assign(words * num_keys, 0);
    const Dist* __restrict here = dist.data() + sw * num_keys;
    for (uint32_t j = f.nbr_begin[slot]; j < f.nbr_begin[slot + 1]; ++j) {
      const Dist* __restrict there = dist.data() + f.local[f.nbr_slot[j]] * num_keys;
      uint64_t* __restrict word = masks.data() + (f.nbr_port[j] / 64) * num_keys;
      const uint64_t bit = uint64_t{1} << (f.nbr_port[j] % 64);
      for (size_t k = 0; k < num_keys; ++k) {
        word[k] |= uint64_t{there[k]} + 1 == here[k] ? bit : 0;
      }
    }
    groups.Reset();
    mask.resize(words);
    for (size_t k = 0; k < num_keys; ++k) {
      if (here[k] == 0) continue;  // the key's hosts hang on this switch: direct ports
      for (size_t w = 0; w < words; ++w) mask[w] = masks[w * num_keys + k];
      group_of_key[k] = groups.Mask(mask);
    }

    runs.clear();
    auto emit = [&](uint32_t first_dst, uint32_t group) {
      if (runs.empty() || runs.back().second != group) runs.emplace_back(first_dst, group);
    };
    uint32_t direct = f.direct_begin[slot];
    for (size_t r = 0; r < c.runs.size(); ++r) {
      const auto [first_dst, key] = c.runs[r];
      if (key == kNone) {
        emit(first_dst, groups.None());
      } else if (here[key] != 0) {
        emit(first_dst, group_of_key[key]);
      } else {
        // Every destination of this run attaches to this switch: walk its direct ports.
        const uint32_t end_dst = r + 1 < c.runs.size() ? c.runs[r + 1].first : UINT32_MAX;
        while (direct < f.direct_begin[slot + 1] && f.direct[direct].first < first_dst) ++direct;
        while (direct < f.direct_begin[slot + 1] && f.direct[direct].first < end_dst) {
          const uint32_t dst = f.direct[direct].first;
          ports.clear();
          for (; direct < f.direct_begin[slot + 1] && f.direct[direct].first == dst; ++direct) {
            ports.push_back(f.direct[direct].second);
          }
          emit(dst, groups.Direct(ports));
        }
      }
    }
    groups.LayOut(runs, out[slot]);
  }
}

}  // namespace

RouteTable RouteTable::Build(const Graph& graph, std::span<const uint8_t> link_up) {
  RouteTable t;
  t.num_hosts_ = static_cast<uint32_t>(graph.num_hosts());
  SwitchFabric f = LinkSwitches(graph, link_up, t.switch_slot_, kNotASwitch);
  std::vector<Component> components = FindComponents(f);
  AttachHosts(graph, link_up, t.switch_slot_, f, components);

  std::vector<SwitchRoutesOut> out(f.node_of.size());
  for (const Component& c : components) {
    // Hops within a component stay below its number of switches.
    if (c.slots.size() < std::numeric_limits<uint16_t>::max()) {
      RouteComponent<uint16_t>(graph, f, c, out, t.max_switch_hops_);
    } else {
      RouteComponent<uint32_t>(graph, f, c, out, t.max_switch_hops_);
    }
  }

  size_t num_runs = 0, num_groups = 0, num_ports = 0;
  for (const SwitchRoutesOut& o : out) {
    num_runs += o.runs.size();
    num_groups += o.group_size.size();
    num_ports += o.ports.size();
  }
  t.runs_.reserve(num_runs);
  t.group_begin_.reserve(num_groups + 1);
  t.ports_.reserve(num_ports);
  t.first_run_.reserve(out.size() + 1);
  t.group_begin_.push_back(0);
  t.first_run_.push_back(0);
  for (const SwitchRoutesOut& o : out) {
    const auto first_group = static_cast<uint32_t>(t.group_begin_.size() - 1);
    for (const uint32_t size : o.group_size) t.group_begin_.push_back(t.group_begin_.back() + size);
    t.ports_.insert(t.ports_.end(), o.ports.begin(), o.ports.end());
    for (const auto& [first_dst, group] : o.runs)
      t.runs_.push_back(Run{first_dst, first_group + group});
    t.first_run_.push_back(static_cast<uint32_t>(t.runs_.size()));
  }
  return t;
}

}  // namespace fe::topo
