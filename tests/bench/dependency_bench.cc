// The cost of dependencies: a workload of 1,000,000 one-packet messages in 1,000 chains of 1,000
// (each message waits for the one before it in its chain) on a k = 4 fat-tree. Half the chains
// pass the baton where it lands (message j + 1 leaves from the host message j reached: a local
// release), half one host further on (a remote release, one lookahead later).
//
// BM_DependencyRelease times the release alone: every message's delivery reported in order, each
// starting its dependant (the start event queued, not run). BM_DependencyRun runs the whole
// workload through the fabric. Both count the heap allocations made meanwhile, with the global
// operator new below, which counts every allocation of this binary.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <new>

#include "control/emulation/emulation.h"
#include "control/scenario/scenario_loader.h"
#include "traffic/dependency_release.h"
#include "traffic/workload.h"

namespace {
std::atomic<uint64_t> g_allocations{0};
}  // namespace

// GCC pairs the inlined malloc with the sized delete's free and warns of a mismatch that is not
// one: every operator new of this binary is the one below.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t bytes) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(bytes == 0 ? 1 : bytes)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace fe {
namespace {

constexpr uint32_t kChains = 1000;
constexpr uint32_t kChainLength = 1000;
constexpr uint32_t kHosts = 16;  // k = 4

Workload Chains() {
  Workload w;
  w.jobs.push_back(Job{"chains", "flow_list", 26});
  w.flows.reserve(uint64_t{kChains} * kChainLength);
  for (uint32_t c = 0; c < kChains; ++c) {
    const uint32_t step = c % 2 == 0 ? 1 : 2;  // 1: the next sender is the last receiver
    for (uint32_t j = 0; j < kChainLength; ++j) {
      Flow f;
      f.src_host = (c + step * j) % kHosts;
      f.dst_host = (f.src_host + 1) % kHosts;
      f.size_bytes = 1000;
      const uint32_t before = static_cast<uint32_t>(w.size()) - 1;
      if (j == 0) {
        w.Add(f);
      } else {
        w.Add(f, std::span<const uint32_t>(&before, 1), Time::FromNs(100));
      }
    }
  }
  return w;
}

StatusOr<std::unique_ptr<control::Emulation>> Build(const Workload& w) {
  auto scenario = control::LoadScenarioText(
      "topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }", "bench");
  if (!scenario.ok()) return scenario.status();
  return control::BuildEmulation(*scenario, w, 1, ".", dp::PoolMemory::kHostPages);
}

void BM_DependencyRelease(benchmark::State& state) {
  const Workload w = Chains();
  uint64_t releases = 0, allocations = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto e = Build(w);
    if (!e.ok()) {
      state.SkipWithError(e.status().message().c_str());
      return;
    }
    DependencyRelease& release = *(*e)->release;
    const uint64_t before = g_allocations.load();
    state.ResumeTiming();
    // Deliveries one nanosecond apart, chain after chain: each releases the next message.
    for (uint32_t id = 0; id < w.size(); ++id) release.OnDelivered(id, Time::FromNs(id));
    state.PauseTiming();
    allocations += g_allocations.load() - before;
    releases += release.releases();
    e = Status::Error("released");
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<int64_t>(releases));
  state.counters["ns_per_release"] = benchmark::Counter(
      static_cast<double>(releases), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["allocations_per_message"] =
      static_cast<double>(allocations) / static_cast<double>(state.iterations() * w.size());
}
BENCHMARK(BM_DependencyRelease)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_DependencyRun(benchmark::State& state) {
  const Workload w = Chains();
  uint64_t messages = 0, allocations = 0, releases = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto e = Build(w);
    if (!e.ok()) {
      state.SkipWithError(e.status().message().c_str());
      return;
    }
    (*e)->sched.EnableWindows((*e)->fabric->lookahead(), (*e)->fabric->num_domains());
    const uint64_t before = g_allocations.load();
    state.ResumeTiming();
    (*e)->sched.RunUntil(Time::Infinite());
    state.PauseTiming();
    allocations += g_allocations.load() - before;
    messages += (*e)->fabric->messages_delivered();
    releases += (*e)->release->releases();
    e = Status::Error("released");
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<int64_t>(messages));
  state.counters["ns_per_message"] = benchmark::Counter(
      static_cast<double>(messages), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["releases"] = static_cast<double>(releases) / state.iterations();
  state.counters["allocations_per_message"] =
      static_cast<double>(allocations) / static_cast<double>(state.iterations() * w.size());
}
BENCHMARK(BM_DependencyRun)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace fe
