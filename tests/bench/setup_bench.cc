// Set-up of a large fabric, phase by phase, as a run does it: the graph, the route table, then
// the dataplane (ports, switches, NICs, packet pool). Each phase is one benchmark so its time
// stands alone; the fabric's also reports where its memory goes: the process's resident set
// before and after, and the objects by count and size.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <memory>

#include "congestion/pfc_config.h"
#include "core/scheduler.h"
#include "dataplane/egress_port.h"
#include "dataplane/fabric.h"
#include "dataplane/nic.h"
#include "dataplane/switch.h"
#include "topology/fat_tree.h"
#include "topology/routes.h"

namespace fe {
namespace {

// Resident memory now (not the peak), in bytes.
double ResidentBytes() {
  long pages = 0, resident = 0;
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
  std::fclose(f);
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE));
}

topo::Graph FatTree(int k) { return topo::BuildFatTree({.k = k}).value(); }

void BM_SetUpGraph(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(FatTree(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_SetUpGraph)->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_SetUpRoutes(benchmark::State& state) {
  const topo::Graph g = FatTree(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    const topo::RouteTable routes = topo::RouteTable::Build(g);
    state.counters["table_bytes"] = static_cast<double>(routes.MemoryBytes());
  }
}
BENCHMARK(BM_SetUpRoutes)->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond)->Iterations(1);

// As a run creates it in software mode: the smallest packet pool (a handful of messages).
void BM_SetUpFabric(benchmark::State& state) {
  const topo::Graph g = FatTree(static_cast<int>(state.range(0)));
  const topo::RouteTable routes = topo::RouteTable::Build(g);
  dp::FabricParams params;
  params.mbuf_pool_size = dp::kMinMbufPoolSize;
  params.pool_memory = dp::PoolMemory::kHostPages;
  double grown = 0;
  size_t switches = 0;
  double port_bytes = 0;
  for (auto _ : state) {
    Scheduler sched;
    const double before = ResidentBytes();
    StatusOr<std::unique_ptr<dp::Fabric>> f = dp::Fabric::Create(g, routes, params, &sched);
    if (!f.ok()) {
      state.SkipWithError(f.status().message().c_str());
      return;
    }
    grown = ResidentBytes() - before;
    switches = (*f)->num_switches();
    port_bytes = (*f)->port_stride_bytes();
    state.PauseTiming();
    f = Status::Error("released");  // tear down outside the timed region
    state.ResumeTiming();
  }
  state.counters["rss_growth_bytes"] = grown;
  state.counters["ports"] = static_cast<double>(g.links().size() * 2);
  // With its queues: a line for each priority the default config queues on.
  state.counters["port_bytes"] = port_bytes;
  state.counters["switch_bytes"] = static_cast<double>(sizeof(dp::Switch));
  // Each switch also holds one of these per (port, priority).
  state.counters["queue_counters_bytes"] = static_cast<double>(sizeof(dp::SwitchQueueCounters));
  state.counters["pause_sender_bytes"] = static_cast<double>(sizeof(cong::PauseSender));
  state.counters["switches"] = static_cast<double>(switches);
  state.counters["nic_bytes"] = static_cast<double>(sizeof(dp::Nic));
  state.counters["nics"] = static_cast<double>(g.num_hosts());
}
BENCHMARK(BM_SetUpFabric)->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace fe
