// The route table's size and build time by fat-tree size, and the cost of one lookup (the
// per-packet part) with destinations in random order, as packets bring them.
#include <benchmark/benchmark.h>

#include <cstdint>
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

void BM_RouteTableBuild(benchmark::State& state) {
  const fe::topo::Graph g = FatTree(static_cast<int>(state.range(0)));
  size_t bytes = 0;
  for (auto _ : state) {
    const fe::topo::RouteTable routes = fe::topo::RouteTable::Build(g);
    bytes = routes.MemoryBytes();
    benchmark::DoNotOptimize(bytes);
  }
  state.counters["table_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_RouteTableBuild)->Arg(8)->Arg(16)->Arg(32)->Unit(benchmark::kMillisecond);

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
BENCHMARK(BM_RouteLookup)->Arg(8)->Arg(16)->Arg(32);

}  // namespace
