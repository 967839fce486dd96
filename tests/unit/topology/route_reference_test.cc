// RouteTable::Build searches once per set of switches that destinations attach to; this checks it
// against the plain definition, written here apart: a breadth-first search from every
// destination host over live links, through switches only, and at every switch the ascending
// ports whose peer is one hop closer. Both the groups and their compressed layout must agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/random.h"
#include "topology/fat_tree.h"
#include "topology/routes.h"

namespace fe::topo {
namespace {

using Ports = std::vector<uint16_t>;

// next[switch node][dst host]: the reference groups.
std::vector<std::vector<Ports>> ReferenceGroups(const Graph& g, std::span<const uint8_t> link_up) {
  auto up = [&](LinkId l) { return link_up.empty() || link_up[l] != 0; };
  std::vector<std::vector<Ports>> next(g.nodes().size());
  for (uint32_t dst = 0; dst < g.num_hosts(); ++dst) {
    std::vector<int> dist(g.nodes().size(), -1);
    std::deque<NodeId> todo{g.hosts()[dst]};
    dist[g.hosts()[dst]] = 0;
    while (!todo.empty()) {
      const NodeId n = todo.front();
      todo.pop_front();
      for (LinkId l : g.node(n).links) {
        if (!up(l)) continue;
        const NodeId m = g.link(l).a.node == n ? g.link(l).b.node : g.link(l).a.node;
        if (dist[m] < 0 && g.node(m).kind == NodeKind::kSwitch) {
          dist[m] = dist[n] + 1;
          todo.push_back(m);
        }
      }
    }
    for (NodeId sw = 0; sw < g.nodes().size(); ++sw) {
      if (g.node(sw).kind != NodeKind::kSwitch) continue;
      Ports closer;
      for (uint16_t p = 0; p < g.node(sw).links.size(); ++p) {
        const NodeId peer = g.Peer({sw, p}).node;
        if (dist[sw] > 0 && up(g.node(sw).links[p]) && dist[peer] == dist[sw] - 1) {
          closer.push_back(p);
        }
      }
      next[sw].push_back(closer);
    }
  }
  return next;
}

// Same groups at every (switch, destination); each switch's distinct groups lie back to back in
// order of first use, after the previous switch's; and the table's size is that of one run per
// change of group along the destinations, one start per group and one entry per port.
void ExpectSameTable(const Graph& g, std::span<const uint8_t> link_up = {}) {
  const RouteTable routes = RouteTable::Build(g, link_up);
  const std::vector<std::vector<Ports>> want = ReferenceGroups(g, link_up);
  size_t switches = 0, runs = 0, groups = 0, ports = 0;
  const uint16_t* layout_end = nullptr;
  for (NodeId sw = 0; sw < g.nodes().size(); ++sw) {
    if (g.node(sw).kind != NodeKind::kSwitch) continue;
    ++switches;
    std::map<Ports, const uint16_t*> seen;
    for (uint32_t dst = 0; dst < g.num_hosts(); ++dst) {
      const std::span<const uint16_t> got = routes.NextHops(sw, dst);
      ASSERT_EQ(Ports(got.begin(), got.end()), want[sw][dst]) << g.node(sw).name << " -> " << dst;
      if (dst == 0 || want[sw][dst] != want[sw][dst - 1]) ++runs;
      const auto [it, fresh] = seen.emplace(want[sw][dst], got.data());
      if (fresh) {
        if (layout_end != nullptr) EXPECT_EQ(got.data(), layout_end) << g.node(sw).name;
        layout_end = got.data() + got.size();
        ++groups;
        ports += got.size();
      } else {
        EXPECT_EQ(got.data(), it->second) << g.node(sw).name << " -> " << dst;
      }
    }
  }
  // The table's arrays: slot by node, first run by switch and one more, runs of (first
  // destination, group), group starts and one more, ports.
  const size_t bytes = sizeof(RouteTable) + 4 * g.nodes().size() + 4 * (switches + 1) + 8 * runs +
                       4 * (groups + 1) + 2 * ports;
  EXPECT_EQ(routes.MemoryBytes(), bytes);
}

TEST(RouteReferenceTest, FatTrees) {
  for (const int k : {2, 4, 6, 8}) {
    SCOPED_TRACE("k = " + std::to_string(k));
    ExpectSameTable(BuildFatTree({.k = k}).value());
  }
}

// Switches and hosts added in shuffled order, a random spanning tree plus extra (some parallel)
// switch links, and hosts on one to three switches (sometimes twice on one), so that hosts that
// share a set of switches are rarely consecutive.
Graph RandomMesh(uint64_t seed, int num_switches, int num_hosts, int extra_links) {
  Random rng(seed);
  Graph g;
  std::vector<NodeId> sw, host;
  while (static_cast<int>(sw.size()) < num_switches || static_cast<int>(host.size()) < num_hosts) {
    const bool add_switch = static_cast<int>(host.size()) == num_hosts ||
                            (static_cast<int>(sw.size()) < num_switches && rng.NextBelow(2) == 0);
    if (add_switch) {
      sw.push_back(g.AddNode(NodeKind::kSwitch, 1, -1, "s" + std::to_string(sw.size())));
    } else {
      host.push_back(g.AddNode(NodeKind::kHost, 0, -1, "h" + std::to_string(host.size())));
    }
  }
  const Rate r = Rate::FromGbps(100);
  const Time d = Time::FromNs(10);
  for (int i = 1; i < num_switches; ++i) g.Connect(sw[i], sw[rng.NextBelow(i)], r, d);
  for (int i = 0; i < extra_links; ++i) {
    g.Connect(sw[rng.NextBelow(num_switches)], sw[rng.NextBelow(num_switches)], r, d);
  }
  for (const NodeId h : host) {
    const uint64_t homes = 1 + rng.NextBelow(3);
    for (uint64_t i = 0; i < homes; ++i) g.Connect(h, sw[rng.NextBelow(num_switches)], r, d);
  }
  return g;
}

TEST(RouteReferenceTest, RandomConnectedGraphs) {
  for (const uint64_t seed : {1, 2, 3}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    ExpectSameTable(RandomMesh(seed, 40, 90, 30));
  }
}

// More than 64 sets of switches (the search's batch) and switches of more than 64 ports (a mask
// word), so that both spill over.
TEST(RouteReferenceTest, ManySetsAndWidePorts) {
  const Graph g = RandomMesh(4, 12, 300, 80);
  size_t widest = 0;
  for (const Node& n : g.nodes()) widest = std::max(widest, n.links.size());
  ASSERT_GT(widest, 64u);
  ExpectSameTable(g);
}

TEST(RouteReferenceTest, DeadLinks) {
  for (const uint64_t seed : {5, 6}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const Graph g = RandomMesh(seed, 30, 60, 10);
    Random rng(seed);
    std::vector<uint8_t> up(g.links().size());
    for (uint8_t& u : up) u = rng.NextBelow(5) != 0;  // a fifth down: some hosts cut off
    ExpectSameTable(g, up);
  }
  // A fat-tree with an edge switch's uplinks and one host link down.
  const Graph g = BuildFatTree({.k = 4}).value();
  std::vector<uint8_t> up(g.links().size(), 1);
  for (const LinkId l : g.node(*g.FindNode("edge1")).links) up[l] = 0;
  up[g.node(*g.FindNode("h5")).links[0]] = 0;
  ExpectSameTable(g, up);
}

// Endpoints with a scale-out NIC to a leaf (port 0) and links to the scale-up switches of their
// domain (ports 1..): the scale-up switches form components of their own. Domains interleave
// (endpoint i is in domain i % 3) so their members are not consecutive, one endpoint has two
// links to one scale-up switch, and one scale-up switch is isolated.
TEST(RouteReferenceTest, MultiHomedScaleUpDomains) {
  Graph g;
  const Rate r = Rate::FromGbps(400);
  const Time d = Time::FromNs(100);
  std::vector<NodeId> host, leaf, su;
  for (int i = 0; i < 12; ++i)
    host.push_back(g.AddNode(NodeKind::kHost, 0, -1, "h" + std::to_string(i)));
  for (int i = 0; i < 3; ++i)
    leaf.push_back(g.AddNode(NodeKind::kSwitch, 1, -1, "leaf" + std::to_string(i)));
  const NodeId spine = g.AddNode(NodeKind::kSwitch, 2, -1, "spine0");
  for (int i = 0; i < 7; ++i)
    su.push_back(g.AddNode(NodeKind::kSwitch, 0, -1, "su" + std::to_string(i)));
  for (int i = 0; i < 12; ++i) g.Connect(host[i], leaf[i / 4], r, d);
  for (int i = 0; i < 12; ++i) {
    g.Connect(host[i], su[2 * (i % 3)], r, d);
    g.Connect(host[i], su[2 * (i % 3) + 1], r, d);
  }
  g.Connect(host[7], su[2], r, d);
  for (const NodeId l : leaf) {
    g.Connect(l, spine, r, d);
    g.Connect(l, spine, r, d);
  }
  ExpectSameTable(g);
}

TEST(RouteReferenceTest, SeparateFabricsAndNoHosts) {
  Graph two = RandomMesh(7, 10, 20, 5);
  const NodeId far_switch = two.AddNode(NodeKind::kSwitch, 1, -1, "far0");
  const NodeId far_host = two.AddNode(NodeKind::kHost, 0, -1, "far_h0");
  two.Connect(far_host, far_switch, Rate::FromGbps(100), Time::FromNs(10));
  two.AddNode(NodeKind::kSwitch, 1, -1, "lone0");
  ExpectSameTable(two);

  Graph switches_only;
  const NodeId a = switches_only.AddNode(NodeKind::kSwitch, 1, -1, "s0");
  const NodeId b = switches_only.AddNode(NodeKind::kSwitch, 1, -1, "s1");
  switches_only.Connect(a, b, Rate::FromGbps(100), Time::FromNs(10));
  const RouteTable routes = RouteTable::Build(switches_only);
  EXPECT_EQ(routes.max_switch_hops(), 0u);
}

}  // namespace
}  // namespace fe::topo
