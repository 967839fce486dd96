// The emulated RoCE NIC's cost per data packet, with and without DCQCN, and with many queue pairs
// on one NIC: two NICs back to back over one 100 Gb/s link each way, so everything measured is the
// NICs (segmentation, pacing, ACKs, CNPs, the DCQCN policy and its lazy timers) plus two egress
// ports. Items are data packets delivered.
#include <benchmark/benchmark.h>
#include <rte_mbuf.h>

#include <cstdio>
#include <memory>

#include "dataplane/egress_port.h"
#include "dataplane/nic.h"
#include "dataplane/packet.h"

namespace fe {
namespace {

constexpr uint32_t kMtu = 4096;

// Marks every data packet CE on its way to the receiver, so DCQCN works all the time: CNPs, cuts,
// pacing below line rate and armed increase timers.
class CeMarker final : public dp::PacketReceiver {
 public:
  explicit CeMarker(dp::PacketReceiver* next) : next_(next) {}
  void Receive(uint16_t port, rte_mbuf* m) override {
    dp::SetIpEcn(m, dp::kEcnCe);
    next_->Receive(port, m);
  }

 private:
  dp::PacketReceiver* next_;
};

enum class Mode : int { kNoCc = 0, kDcqcnIdle = 1, kDcqcnMarked = 2 };

struct BackToBack {
  BackToBack(rte_mempool* pool, Mode mode)
      : a_port(&sched, Rate::FromGbps(100), Time::FromNs(1000)),
        b_port(&sched, Rate::FromGbps(100), Time::FromNs(1000)) {
    dp::NicParams p;
    p.mtu_payload_bytes = kMtu;
    p.cc = mode == Mode::kNoCc ? dp::CongestionControl::kNone : dp::CongestionControl::kDcqcn;
    StatusOr<dp::NicConfig> compiled = dp::CompileNicParams(p, Rate::FromGbps(100));
    const dp::NicConfig config = *compiled;
    a = std::make_unique<dp::Nic>(0, &sched, &a_port, pool, &messages, config);
    b = std::make_unique<dp::Nic>(1, &sched, &b_port, pool, &messages, config);
    marker = std::make_unique<CeMarker>(b.get());
    a_port.SetSource(a.get());
    b_port.SetSource(b.get());
    a_port.ConnectPeer(
        mode == Mode::kDcqcnMarked ? static_cast<dp::PacketReceiver*>(marker.get()) : b.get(), 0);
    b_port.ConnectPeer(a.get(), 0);
  }
  ~BackToBack() {
    sched.DiscardAll();
    a_port.DrainAll();
    b_port.DrainAll();
  }
  // qps messages of packets_each full packets from NIC 0 to NIC 1, all starting at 0.
  void Add(uint32_t qps, uint32_t packets_each) {
    messages.reserve(qps);
    for (uint32_t i = 0; i < qps; ++i) {
      dp::MessageInfo info;
      info.spec = dp::MessageSpec{0, 1, uint64_t{packets_each} * kMtu, Time::Zero(), 26};
      info.packets_total = packets_each;
      info.udp_src_port = static_cast<uint16_t>(0xC000 | (i & 0x3FFF));
      messages.Add(info);
    }
    for (uint32_t i = 0; i < qps; ++i) a->ScheduleMessage(i);
  }
  // Messages complete roughly in the order they started: a cursor keeps the check cheap enough
  // to run every few events.
  bool AllCompleted() {
    while (first_pending < messages.size() && messages.completed(first_pending)) ++first_pending;
    for (size_t i = first_pending; i < messages.size(); ++i) {
      if (!messages.completed(i)) return false;
    }
    return true;
  }

  Scheduler sched;
  dp::MessageTable messages;
  dp::StandaloneEgressPort a_port, b_port;
  std::unique_ptr<dp::Nic> a, b;
  std::unique_ptr<CeMarker> marker;
  size_t first_pending = 0;
};

rte_mempool* Pool() {
  static rte_mempool* pool =
      rte_pktmbuf_pool_create("bench_nic", 16383, 256, dp::kPacketPrivBytes, 256, SOCKET_ID_ANY);
  return pool;
}

// Runs qps x packets_each packets to the last completion; reports ns and events per data packet.
void RunNic(benchmark::State& state, Mode mode, uint32_t qps, uint32_t packets_each) {
  uint64_t packets = 0, events = 0, events_after = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto w = std::make_unique<BackToBack>(Pool(), mode);
    w->Add(qps, packets_each);
    state.ResumeTiming();
    // In slices, so that the run stops at the last completion: DCQCN timers of throttled QPs
    // go on firing after it until their rates are back at line rate.
    while (!w->AllCompleted()) events += w->sched.RunUntil(Time::Infinite(), 64);
    packets += w->b->counters().data_packets_received;
    state.PauseTiming();
    events_after += w->sched.RunUntil(Time::Infinite());
    w.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<int64_t>(packets));
  state.counters["ns_per_packet"] = benchmark::Counter(
      static_cast<double>(packets), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["events_per_packet"] = static_cast<double>(events) / static_cast<double>(packets);
  // Events after the last completion, per QP (not timed): stale retransmission events, and the
  // increase timers of QPs still below line rate.
  state.counters["tail_events_per_qp"] =
      static_cast<double>(events_after) / static_cast<double>(state.iterations() * qps);
}

// One QP, 100,000 packets: the per-packet cost of the NIC with congestion control off, DCQCN on
// but never throttled, and DCQCN throttled by a CE mark on every packet.
void BM_NicPerPacket(benchmark::State& state) {
  RunNic(state, static_cast<Mode>(state.range(0)), 1, 100'000);
}
BENCHMARK(BM_NicPerPacket)
    ->ArgName("mode")
    ->Arg(static_cast<int>(Mode::kNoCc))
    ->Arg(static_cast<int>(Mode::kDcqcnIdle))
    ->Arg(static_cast<int>(Mode::kDcqcnMarked))
    ->Unit(benchmark::kMillisecond);

// The same 160,000 packets over 1, 100 and 10,000 concurrent QPs of one NIC, DCQCN on: never
// throttled (mode 1: no timer is armed, the lazy design's common case) and with every packet
// marked (mode 2: every QP throttled, its increase timer armed while it waits for its turn).
void BM_NicManyQps(benchmark::State& state) {
  const auto qps = static_cast<uint32_t>(state.range(0));
  RunNic(state, static_cast<Mode>(state.range(1)), qps, 160'000 / qps);
}
BENCHMARK(BM_NicManyQps)
    ->ArgNames({"qps", "mode"})
    ->ArgsProduct({{1, 100, 10'000},
                   {static_cast<int>(Mode::kDcqcnIdle), static_cast<int>(Mode::kDcqcnMarked)}})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace fe
