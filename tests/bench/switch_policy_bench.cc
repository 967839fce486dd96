// The per-hop cost the switch's buffer policies add, without the rest of the hop: one packet's
// shared-buffer admission, PFC check, WRED decision, release and second PFC check, on a 32-port
// switch with a lossless and a lossy class, queues held near the marking band.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "congestion/buffer_admission.h"
#include "congestion/wred.h"
#include "core/random.h"

namespace {

void BM_SwitchPolicyPerHop(benchmark::State& state) {
  const bool lossless = state.range(0) != 0;
  constexpr int kPorts = 32;
  fe::cong::BufferParams params;
  params.num_ports = kPorts;
  params.headroom_bytes.assign(kPorts, 41398);
  fe::cong::BufferAdmission mmu(fe::cong::Compile(params).value());
  const fe::cong::WredConfig wred = fe::cong::Compile(fe::cong::WredParams{}).value();
  fe::Random random(1);
  const uint8_t prio = lossless ? 3 : 0;
  uint32_t i = 0;
  for (auto _ : state) {
    const auto in = static_cast<uint16_t>(i % kPorts);
    const auto out = static_cast<uint16_t>((i * 7 + 1) % kPorts);
    ++i;
    const fe::cong::AdmitVerdict v = mmu.Admit(in, out, prio, 4154);
    benchmark::DoNotOptimize(mmu.PfcCheck(in, prio));
    const int64_t q = mmu.queue(out, prio).bytes + 20000;  // inside the marking band
    benchmark::DoNotOptimize(fe::cong::WredDecide(wred, q, true, lossless,
                                                  static_cast<uint32_t>(random.NextU64() >> 32)));
    if (fe::cong::Admitted(v)) mmu.Release(in, out, prio, 4154);
    benchmark::DoNotOptimize(mmu.PfcCheck(in, prio));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SwitchPolicyPerHop)->Arg(0)->Arg(1);

}  // namespace
