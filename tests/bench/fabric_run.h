// Times whole fabric runs of one scenario text for Google Benchmark: each iteration builds the
// emulation and runs it to the end, and only the event loop is timed (building and tearing down
// happen with the timer paused). Reports items (packet-hops) and ns_per_hop.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "control/emulation/emulation.h"
#include "control/scenario/scenario_loader.h"

namespace fe::bench {

// windows: run in windows of the fabric's lookahead, as `fabric-emu run` does, or in one global
// event order.
inline void TimeFabricRuns(benchmark::State& state, const std::string& text, bool windows) {
  auto scenario = control::LoadScenarioText(text, "bench");
  if (!scenario.ok()) {
    state.SkipWithError(scenario.status().message().c_str());
    return;
  }
  uint64_t hops = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto e = control::BuildEmulation(*scenario, 1, ".", dp::PoolMemory::kHostPages);
    if (windows) (*e)->sched.EnableWindows((*e)->fabric->lookahead(), (*e)->fabric->num_domains());
    state.ResumeTiming();
    (*e)->sched.RunUntil(Time::Infinite());
    hops += (*e)->fabric->Totals().packet_hops;
    state.PauseTiming();
    e = Status::Error("released");  // tear down outside the timed region
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<int64_t>(hops));
  state.counters["ns_per_hop"] = benchmark::Counter(
      static_cast<double>(hops), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

}  // namespace fe::bench
