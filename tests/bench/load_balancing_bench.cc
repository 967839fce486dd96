// The cost of a packet-hop under each load-balancing policy, on the bench_k16 scenario (a k = 16
// fat-tree permutation of 2 MB messages, 1,024 hosts, 320 switches) with the policy set on every
// switch, in windows of one link delay as `fabric-emu run` runs it. docs/load-balancing.md gives
// the figures.
#include <benchmark/benchmark.h>

#include <string>

#include "fabric_run.h"

namespace fe {
namespace {

constexpr const char* kPolicies[] = {
    "HASH", "FLOWLET", "ADAPTIVE", "ADAPTIVE adaptive_granularity: PER_PACKET", "SPRAY", "WEIGHTED",
};

void BM_LoadBalancingK16(benchmark::State& state) {
  const std::string text =
      "name: \"bench_k16\" topology { fat_tree { k: 16 link_rate_gbps: 100 link_delay_ns: 1000 } "
      "} nic { mtu_payload_bytes: 4000 } traffic { permutation { message_bytes: 2000000 } } "
      "switch { load_balancing { policy: " +
      std::string(kPolicies[state.range(0)]) + " } }";
  state.SetLabel(kPolicies[state.range(0)]);
  bench::TimeFabricRuns(state, text, /*windows=*/true);
}
BENCHMARK(BM_LoadBalancingK16)
    ->DenseRange(0, 3)
    ->ArgName("policy")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2);

}  // namespace
}  // namespace fe
