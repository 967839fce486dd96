// RouteTable::Build without a search per destination host.
//
// Destinations are grouped by the switches they attach to, per component of the switch graph
// (attachment_sets.h): a k-ary fat-tree's k^3/4 hosts need k^2/2 searches, one per edge switch,
// and a rail-optimised fabric with scale-up domains, where every endpoint's set is its own, one
// per rail switch and a trivial one per scale-up switch. A component's searches run 64 keys at a
// time, one bit each; each switch port records the keys it leads one hop closer to, and a
// 64 x 64 bit transpose turns those bits into one port mask per key, interned as whole words.
// A switch then walks its component's runs of destinations, except the hosts on its own ports,
// which get their direct ports one by one; a switch with one group for every other destination
// (an edge or rail switch: its up-ports) walks its own hosts alone.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "topology/attachment_sets.h"
#include "topology/routes.h"

namespace fe::topo {
namespace {

using internal::Component;
using internal::kNone;
using internal::SwitchFabric;
using internal::VectorIds;

// One switch's routes as Build lays them out: runs name groups in order of first use.
struct SwitchRoutesOut {
  std::vector<std::pair<uint32_t, uint32_t>> runs;  // (first destination, group)
  std::vector<uint32_t> group_size;
  std::vector<uint16_t> ports;
};

// Transposes a 64 x 64 bit matrix: bit j of row i moves to bit i of row j.
void Transpose64(uint64_t* rows) {
  uint64_t m = 0x00000000FFFFFFFFULL;
  for (int j = 32; j != 0; j >>= 1, m ^= m << j) {
    for (int k = 0; k < 64; k = ((k | j) + 1) & ~j) {
      const uint64_t t = ((rows[k] >> j) ^ rows[k | j]) & m;
      rows[k] ^= t << j;
      rows[k | j] ^= t;
    }
  }
}

// Interns one switch's groups while its runs are laid out, and renumbers them by first use.
class GroupInterner {
 public:
  size_t num_masks() const { return masks_.size(); }
  uint32_t None() {
    if (none_ == kNone) none_ = NewGroup();
    return none_;
  }
  // The ports set in `mask` (one bit per local port, 64 a word).
  uint32_t Mask(std::span<const uint64_t> mask) {
    // Successive keys mostly share a group: compared before hashing.
    if (last_mask_ != kNone && std::equal(mask.begin(), mask.end(), key_.begin(), key_.end())) {
      return last_mask_;
    }
    key_.assign(mask.begin(), mask.end());
    const auto it = masks_.find(key_);
    if (it != masks_.end()) return last_mask_ = it->second;
    for (size_t w = 0; w < mask.size(); ++w) {
      for (uint64_t bits = mask[w]; bits != 0; bits &= bits - 1) {
        group_ports_.push_back(static_cast<uint16_t>(64 * w + std::countr_zero(bits)));
      }
    }
    last_mask_ = NewGroup();
    masks_.emplace(key_, last_mask_);
    return last_mask_;
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
  std::vector<uint64_t> key_;  // the last mask looked up
  uint32_t last_mask_ = kNone;
  VectorIds<uint16_t> directs_;
  std::vector<uint16_t> group_ports_;
  std::vector<uint32_t> group_end_;
  uint32_t none_ = kNone;
};

// Breadth-first from 64 keys at once, one bit per key: closer[j] then holds, for the switch
// neighbour entry j of switch v, the keys to which that entry's port leads one hop closer.
void RouteComponent(const Graph& graph, const SwitchFabric& f, const Component& c,
                    std::vector<SwitchRoutesOut>& out, uint32_t& max_switch_hops) {
  const auto num_hosts = static_cast<uint32_t>(graph.num_hosts());
  const size_t num_sw = c.slots.size();
  const size_t num_keys = c.keys.size();
  std::vector<uint32_t> nbr_begin(num_sw + 1, 0), nbr;
  std::vector<uint16_t> nbr_port;
  std::vector<uint8_t> entry(num_sw, 0);  // a destination attaches here: a path may start here
  for (size_t v = 0; v < num_sw; ++v) {
    const uint32_t slot = c.slots[v];
    for (uint32_t j = f.nbr_begin[slot]; j < f.nbr_begin[slot + 1]; ++j) {
      nbr.push_back(f.local[f.nbr_slot[j]]);
      nbr_port.push_back(f.nbr_port[j]);
    }
    nbr_begin[v + 1] = static_cast<uint32_t>(nbr.size());
  }
  for (const std::vector<uint32_t>& key : c.keys) {
    for (const uint32_t v : key) entry[v] = 1;
  }
  if (num_keys > 0) max_switch_hops = std::max(max_switch_hops, 1u);

  // By (switch, key): the switch's group, or kNone where the key's hosts hang on the switch.
  std::vector<uint32_t> group_of_key(num_sw * num_keys, kNone);
  std::vector<GroupInterner> groups(num_sw);
  std::vector<uint64_t> origin(num_sw), visited(num_sw), frontier(num_sw), next(num_sw);
  std::vector<uint64_t> closer(nbr.size());
  std::vector<uint64_t> block(64), masks;
  for (size_t base = 0; base < num_keys; base += 64) {
    const size_t batch = std::min<size_t>(64, num_keys - base);
    const uint64_t all = batch == 64 ? ~uint64_t{0} : (uint64_t{1} << batch) - 1;
    std::fill(origin.begin(), origin.end(), 0);
    std::fill(closer.begin(), closer.end(), 0);
    for (size_t b = 0; b < batch; ++b) {
      for (const uint32_t v : c.keys[base + b]) origin[v] |= uint64_t{1} << b;
    }
    visited = origin;
    frontier = origin;
    for (uint32_t level = 1;; ++level) {
      for (size_t v = 0; v < num_sw; ++v) {
        uint64_t reached = 0;
        if (visited[v] != all) {
          for (uint32_t j = nbr_begin[v]; j < nbr_begin[v + 1]; ++j) reached |= frontier[nbr[j]];
          reached &= ~visited[v];
        }
        next[v] = reached;
      }
      bool grew = false;
      for (size_t v = 0; v < num_sw; ++v) {
        if (next[v] == 0) continue;
        grew = true;
        visited[v] |= next[v];
        for (uint32_t j = nbr_begin[v]; j < nbr_begin[v + 1]; ++j) {
          closer[j] |= frontier[nbr[j]] & next[v];
        }
        // A path from here to those keys crosses this switch and `level` more.
        if (entry[v] != 0) max_switch_hops = std::max(max_switch_hops, level + 1);
      }
      if (!grew) break;
      frontier.swap(next);
    }

    // Turn each switch's (port, key) bits into one port mask per key, 64 ports at a time.
    for (size_t v = 0; v < num_sw; ++v) {
      const size_t words = (graph.node(f.node_of[c.slots[v]]).links.size() + 63) / 64;
      masks.assign(64 * words, 0);
      uint32_t j = nbr_begin[v];  // entries ascend by port
      for (size_t w = 0; w < words; ++w) {
        if (j == nbr_begin[v + 1] || nbr_port[j] / 64 != w) continue;  // no switch on these ports
        std::fill(block.begin(), block.end(), 0);
        for (; j < nbr_begin[v + 1] && nbr_port[j] / 64 == w; ++j) {
          block[nbr_port[j] % 64] = closer[j];
        }
        Transpose64(block.data());
        for (size_t b = 0; b < batch; ++b) masks[b * words + w] = block[b];
      }
      for (size_t b = 0; b < batch; ++b) {
        if ((origin[v] >> b & 1) != 0) continue;  // direct ports, host by host
        group_of_key[v * num_keys + base + b] =
            groups[v].Mask(std::span<const uint64_t>(masks.data() + b * words, words));
      }
    }
  }

  const bool has_none = std::any_of(c.runs.begin(), c.runs.end(),
                                    [](const auto& run) { return run.second == kNone; });
  std::vector<std::pair<uint32_t, uint32_t>> runs;
  std::vector<uint16_t> ports;
  for (uint32_t v = 0; v < num_sw; ++v) {
    const uint32_t slot = c.slots[v];
    const uint32_t* key_group = group_of_key.data() + size_t{v} * num_keys;
    GroupInterner& g = groups[v];
    runs.clear();
    auto emit = [&](uint32_t first_dst, uint32_t group) {
      if (runs.empty() || runs.back().second != group) runs.emplace_back(first_dst, group);
    };
    uint32_t direct = f.direct_begin[slot];
    const uint32_t direct_end = f.direct_begin[slot + 1];
    // The hosts on this switch's own ports from `from` up to `to`, each with its ports, and
    // unless `fill` is kNone, that group for the destinations between them.
    auto walk_direct = [&](uint32_t from, uint32_t to, uint32_t fill) {
      while (direct < direct_end && f.direct[direct].first < from) ++direct;
      while (direct < direct_end && f.direct[direct].first < to) {
        const uint32_t dst = f.direct[direct].first;
        if (fill != kNone && dst > from) emit(from, fill);
        ports.clear();
        for (; direct < direct_end && f.direct[direct].first == dst; ++direct) {
          ports.push_back(f.direct[direct].second);
        }
        emit(dst, g.Direct(ports));
        from = dst + 1;
      }
      if (fill != kNone && from < to) emit(from, fill);
    };
    if (g.num_masks() + (has_none ? 1 : 0) <= 1) {
      // One group for every destination off this switch's own ports (an edge or rail switch's
      // up-ports): its own hosts decide the runs, not the component's.
      const uint32_t* mask = std::find_if(key_group, key_group + num_keys,
                                          [](uint32_t group) { return group != kNone; });
      walk_direct(0, num_hosts, mask != key_group + num_keys ? *mask : g.None());
    } else {
      for (size_t r = 0; r < c.runs.size(); ++r) {
        const auto [first_dst, key] = c.runs[r];
        if (key == kNone) {
          emit(first_dst, g.None());
        } else if (key_group[key] != kNone) {
          emit(first_dst, key_group[key]);
        } else {  // every destination of this run hangs on this switch
          walk_direct(first_dst, r + 1 < c.runs.size() ? c.runs[r + 1].first : num_hosts, kNone);
        }
      }
    }
    g.LayOut(runs, out[slot]);
    g = GroupInterner();  // its maps are no longer needed
  }
}

}  // namespace

RouteTable RouteTable::Build(const Graph& graph, std::span<const uint8_t> link_up) {
  RouteTable t;
  t.num_hosts_ = static_cast<uint32_t>(graph.num_hosts());
  SwitchFabric f = internal::LinkSwitches(graph, link_up, t.switch_slot_, kNotASwitch);
  const std::vector<Component> components =
      internal::GroupDestinations(graph, link_up, t.switch_slot_, f);

  std::vector<SwitchRoutesOut> out(f.node_of.size());
  for (const Component& c : components) {
    RouteComponent(graph, f, c, out, t.max_switch_hops_);
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
