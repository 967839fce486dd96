// The hot path is one packet crossing one hop. These benchmarks report it as ns per packet-hop
// (items/s inverted), plus the memory a packet and a message cost.
#include <benchmark/benchmark.h>
#include <rte_mbuf.h>

#include <cstdio>
#include <memory>

#include "dataplane/eal.h"
#include "dataplane/egress_port.h"
#include "dataplane/egress_port_array.h"
#include "dataplane/packet.h"
#include "dataplane/packet_pool.h"
#include "fabric_run.h"

namespace fe {
namespace {

// A ring of egress ports: each arrival is re-queued on the next port, so every event is one
// enqueue + serialise + propagate + hand-over, without routing.
struct Relay : dp::PacketReceiver {
  dp::EgressPort* next = nullptr;
  uint64_t hops = 0;
  void Receive(uint16_t, rte_mbuf* m) override {
    ++hops;
    // As a switch names a queue: its QueueId, compiled ahead.
    next->Enqueue(m, dp::QueueIdOf(dp::kAllPriorities, 3));
  }
};

void BM_EgressPortRing(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  Scheduler sched;
  dp::EgressPortArray ports(dp::kAllPriorities, n);
  std::vector<Relay> relays(n);
  for (int i = 0; i < n; ++i) ports.emplace_back(&sched, Rate::FromGbps(100), Time::FromNs(1000));
  for (int i = 0; i < n; ++i) {
    relays[i].next = &ports[(i + 1) % n];
    ports[i].ConnectPeer(&relays[i], 0);
  }
  char name[RTE_MEMPOOL_NAMESIZE];
  std::snprintf(name, sizeof(name), "bench_ring%d", n);
  rte_mempool* pool = rte_pktmbuf_pool_create(name, static_cast<unsigned>(n * 8 + 1023), 256,
                                              dp::kPacketPrivBytes, 256, SOCKET_ID_ANY);
  // Eight packets per port keep every link busy, like a loaded fabric.
  for (int i = 0; i < n * 8; ++i) {
    rte_mbuf* m = rte_pktmbuf_alloc(pool);
    rte_pktmbuf_append(m, 54);
    dp::SetVirtualBytes(m, 4100);
    ports[i % n].Enqueue(m, 3);
  }
  uint64_t hops = 0;
  for (auto _ : state) {
    const uint64_t before = relays[0].hops;
    sched.RunUntil(Time::Infinite(), 1 << 16);
    hops += 1 << 16;
    benchmark::DoNotOptimize(before);
  }
  state.SetItemsProcessed(static_cast<int64_t>(hops));
  sched.DiscardAll();
  for (int i = 0; i < n; ++i) ports[i].DrainAll();
  rte_mempool_free(pool);
}
BENCHMARK(BM_EgressPortRing)->Arg(16)->Arg(4096);

// Whole fabric: permutation of 2 MB messages, every hop through parse, ECMP route and queue,
// in one global event order (windows:0) or in windows of one link delay as `fabric-emu run`
// does (windows:1).
void BM_FabricPermutation(benchmark::State& state) {
  const int k = static_cast<int>(state.range(0));
  const bool windows = state.range(1) != 0;
  char text[512];
  std::snprintf(text, sizeof(text),
                "name: \"bench\" topology { fat_tree { k: %d link_rate_gbps: 100 "
                "link_delay_ns: 1000 } } nic { mtu_payload_bytes: 4000 } "
                "traffic { permutation { message_bytes: 2000000 } }",
                k);
  bench::TimeFabricRuns(state, text, windows);
}
BENCHMARK(BM_FabricPermutation)
    ->ArgsProduct({{4, 8}, {0, 1}})
    ->ArgNames({"k", "windows"})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

void BM_MemoryPerPacketAndMessage(benchmark::State& state) {
  // The software-mode pool, as a run creates it: without a private area, or with one for HPCC.
  auto plain = dp::CreatePacketPool("bench_mem", 1023, 0, dp::PoolMemory::kHostPages, 0);
  auto hpcc = dp::CreatePacketPool("bench_mem_hpcc", 1023, 0, dp::PoolMemory::kHostPages,
                                   dp::kPacketPrivBytes);
  if (!plain.ok() || !hpcc.ok()) {
    state.SkipWithError("cannot create the pools");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(*plain);
  // An in-flight packet: its mempool element (object header + mbuf + private area + data room)
  // plus, in a queue, its entry there (16 bytes and a share of its chunk's link), or, on a
  // wire, its arrival event.
  const auto element = [](const rte_mempool* mp) {
    return static_cast<double>(mp->header_size + mp->elt_size + mp->trailer_size);
  };
  constexpr double kQueueSlotBytes = dp::EgressPort::QueueBytesPerPacket();
  state.counters["bytes_per_packet_queued"] = element(*plain) + kQueueSlotBytes;
  state.counters["bytes_per_packet_on_wire"] = element(*plain) + sizeof(Event);
  state.counters["bytes_per_packet_queued_hpcc"] = element(*hpcc) + kQueueSlotBytes;
  state.counters["bytes_per_message"] = static_cast<double>(
      sizeof(dp::MessageInfo) + sizeof(dp::SenderState) + sizeof(dp::ReceiverState));
  rte_mempool_free(*plain);
  rte_mempool_free(*hpcc);
}
BENCHMARK(BM_MemoryPerPacketAndMessage)->Iterations(1);

}  // namespace
}  // namespace fe

int main(int argc, char** argv) {
  fe::dp::EalOptions eal;
  eal.memory_mb = 2048;
  eal.keep_thread_affinity = true;  // BM_CacheLineBetweenCores picks its own two CPUs
  if (fe::Status s = fe::dp::InitEal(eal); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 1;
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
