// The route table's size and build time by fabric size, and the cost of one lookup (the
// per-packet part) with destinations in random order, as packets bring them.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/random.h"
#include "topology/fat_tree.h"
#include "topology/routes.h"

namespace {

fe::topo::Graph FatTree(int k) {
  fe::topo::FatTreeParams params;
  params.k = k;
  return fe::topo::BuildFatTree(params).value();
}

// A rail-optimised fabric with scale-up domains, laid out as the rail_optimized and scale_up
// builders document it: endpoint = server x 8 + i; NIC i of the 64 servers of a rail group on
// rail switch i of the group; every rail switch on every one of 64 spines; each server's 8
// endpoints a scale-up domain with 2 scale-up switches. Every endpoint attaches to a set of
// switches of its own (its rail switch, its domain's scale-up switches).
fe::topo::Graph RailFabric(int servers) {
  using fe::topo::NodeId;
  using fe::topo::NodeKind;
  constexpr int kRails = 8, kServersPerGroup = 64, kSpines = 64, kScaleUpPerDomain = 2;
  const fe::Rate nic_rate = fe::Rate::FromGbps(400);
  const fe::Rate scale_up_rate = fe::Rate::FromGbps(7200);
  const fe::Time delay = fe::Time::FromNs(100);
  fe::topo::Graph g;
  std::vector<NodeId> hosts, rails, spines, scale_up;
  for (int h = 0; h < servers * kRails; ++h) {
    hosts.push_back(g.AddNode(NodeKind::kHost, 0, -1, "h" + std::to_string(h)));
  }
  const int groups = servers / kServersPerGroup;
  for (int r = 0; r < groups * kRails; ++r) {
    rails.push_back(g.AddNode(NodeKind::kSwitch, 1, r / kRails, "rail" + std::to_string(r)));
  }
  for (int s = 0; s < kSpines; ++s) {
    spines.push_back(g.AddNode(NodeKind::kSwitch, 2, -1, "spine" + std::to_string(s)));
  }
  for (int u = 0; u < servers * kScaleUpPerDomain; ++u) {
    scale_up.push_back(g.AddNode(NodeKind::kSwitch, 0, -1, "su" + std::to_string(u)));
  }
  for (int h = 0; h < servers * kRails; ++h) {
    const int server = h / kRails;
    g.Connect(hosts[h], rails[(server / kServersPerGroup) * kRails + h % kRails], nic_rate, delay);
    for (int u = 0; u < kScaleUpPerDomain; ++u) {
      g.Connect(hosts[h], scale_up[server * kScaleUpPerDomain + u], scale_up_rate, delay);
    }
  }
  for (const NodeId r : rails) {
    for (const NodeId s : spines) g.Connect(r, s, nic_rate, delay);
  }
  return g;
}

void BuildAndReport(benchmark::State& state, const fe::topo::Graph& g) {
  size_t bytes = 0;
  for (auto _ : state) {
    const fe::topo::RouteTable routes = fe::topo::RouteTable::Build(g);
    bytes = routes.MemoryBytes();
    benchmark::DoNotOptimize(bytes);
  }
  state.counters["hosts"] = static_cast<double>(g.num_hosts());
  state.counters["switches"] = static_cast<double>(g.num_switches());
  state.counters["table_bytes"] = static_cast<double>(bytes);
}

void BM_RouteTableBuild(benchmark::State& state) {
  BuildAndReport(state, FatTree(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_RouteTableBuild)->Arg(8)->Arg(16)->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond);

// Argument: servers (x 8 endpoints); 12,800 servers = 102,400 endpoints.
void BM_RouteTableBuildRail(benchmark::State& state) {
  BuildAndReport(state, RailFabric(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_RouteTableBuildRail)->Arg(1'280)->Arg(12'800)->Unit(benchmark::kMillisecond);

void BM_RouteLookup(benchmark::State& state) {
  const fe::topo::Graph g = FatTree(static_cast<int>(state.range(0)));
  const fe::topo::RouteTable routes = fe::topo::RouteTable::Build(g);
  std::vector<fe::topo::NodeId> switches;
  for (fe::topo::NodeId n = 0; n < g.nodes().size(); ++n) {
    if (g.node(n).kind == fe::topo::NodeKind::kSwitch) switches.push_back(n);
  }
  fe::Random rng(1);
  uint64_t ports = 0;
  for (auto _ : state) {
    const fe::topo::NodeId sw = switches[rng.NextBelow(switches.size())];
    ports += routes.NextHops(sw, static_cast<uint32_t>(rng.NextBelow(g.num_hosts()))).size();
  }
  benchmark::DoNotOptimize(ports);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RouteLookup)->Arg(8)->Arg(16)->Arg(32)->Arg(64);

}  // namespace
