// What it costs the machine to pass one cache line from one core to another: the price of every
// frame, event and outbox entry that one lane of `run --cores 2` writes and another reads
// (docs/multicore.md, "What limits scaling"). Two threads on the process's first two CPUs hand
// a counter back and forth; each hand-over is one line moving between their caches.
#include <benchmark/benchmark.h>
#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

namespace fe {
namespace {

// The n-th CPU the process may run on, or -1.
int AllowedCpu(int n) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return -1;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set) && n-- == 0) return cpu;
  }
  return -1;
}

bool PinTo(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
}

void BM_CacheLineBetweenCores(benchmark::State& state) {
  const int first = AllowedCpu(0);
  const int second = AllowedCpu(1);
  if (second < 0) {
    state.SkipWithError("needs two CPUs");
    return;
  }
  alignas(64) static std::atomic<uint64_t> turn{0};
  turn.store(0);
  constexpr uint64_t kStop = UINT64_MAX;
  // The other core answers each odd value with the next even one.
  std::thread echo([second] {
    PinTo(second);
    for (uint64_t seen = 0;;) {
      uint64_t v;
      while ((v = turn.load(std::memory_order_acquire)) == seen) {
      }
      if (v == kStop) return;
      seen = v + 1;
      turn.store(seen, std::memory_order_release);
    }
  });
  cpu_set_t before;
  const bool restore = sched_getaffinity(0, sizeof(before), &before) == 0;
  PinTo(first);
  uint64_t v = 0;
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    turn.store(++v, std::memory_order_release);
    while (turn.load(std::memory_order_acquire) != v + 1) {
    }
    ++v;
  }
  const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - start;
  turn.store(kStop, std::memory_order_release);
  echo.join();
  if (restore) pthread_setaffinity_np(pthread_self(), sizeof(before), &before);
  // An iteration is a round trip: two hand-overs.
  state.counters["ns_one_way"] = took.count() / (2.0 * static_cast<double>(state.iterations()));
}
BENCHMARK(BM_CacheLineBetweenCores)->UseRealTime();

}  // namespace
}  // namespace fe
