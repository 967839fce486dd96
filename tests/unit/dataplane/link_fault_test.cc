// Link faults at one link: frames sent into a dead link are lost after their wire time, frames on
// the wire when it dies are lost where they would arrive, PFC frames too; bit errors lose frames
// at the rate 1 - (1 - BER)^bits.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "arrival_sink.h"
#include "dataplane/egress_port.h"
#include "dataplane/fabric.h"
#include "dataplane/packet.h"
#include "dataplane/pfc_frame.h"
#include "test_pool.h"
#include "topology/graph.h"
#include "topology/routes.h"

namespace fe::dp {
namespace {

using testing::ArrivalSink;

struct Call final : EventHandler {
  explicit Call(std::function<void()> f) : fn(std::move(f)) {}
  void OnEvent(uint64_t) override { fn(); }
  std::function<void()> fn;
};

struct Losses final : LinkLossObserver {
  void OnLinkLoss(uint32_t link, DropReason reason, const rte_mbuf*) override {
    seen.emplace_back(link, reason);
  }
  std::vector<std::pair<uint32_t, DropReason>> seen;
};

TEST(LinkFaultTest, DeadLinkLosesFramesSentIntoItAndOnTheWire) {
  testing::TestPool pool;
  Scheduler sched;
  ArrivalSink at_b(&sched), at_a(&sched);
  // 1,500-byte frames: 1,520 wire bytes at 100 Gb/s = 121.6 ns each; 1 us of propagation.
  constexpr int64_t kSerPs = 121600;
  constexpr int64_t kDelayPs = 1000000;
  StandaloneEgressPort a(&sched, Rate::FromGbps(100), Time::FromPs(kDelayPs));
  StandaloneEgressPort b(&sched, Rate::FromGbps(100), Time::FromPs(kDelayPs));
  a.ConnectDuplex(&at_b, 0, &b);
  b.ConnectDuplex(&at_a, 0, &a);
  Losses observed;
  a.SetLossObserver(&observed, 7);
  b.SetLossObserver(&observed, 7);

  for (int i = 0; i < 10; ++i) a.Enqueue(pool.Frame(1500), 3);
  // Down when two frames have arrived and the other eight are all on the wire.
  const Time down = Time::FromPs(kDelayPs + 5 * kSerPs / 2);
  const Time up = Time::FromNs(5000);
  auto pause = [&](uint8_t prio) {
    uint8_t mac[6] = {2, 0, 0, 0, 0, 1};
    rte_mbuf* pfc = pool.Alloc();
    PfcFrame f;
    f.class_enable = static_cast<uint8_t>(1u << prio);
    f.quanta[prio] = 0xffff;
    EXPECT_TRUE(WritePfcFrame(pfc, mac, f));
    b.EnqueueControl(pfc);
  };
  // A pause for an idle class, half a propagation delay before the failure: on the wire then.
  Call pause_early([&] { pause(5); });
  Call go_down([&] {
    a.SetLinkDown(true);
    b.SetLinkDown(true);
    for (int i = 0; i < 5; ++i) a.Enqueue(pool.Frame(1500), 3);
    pause(3);
  });
  Call come_up([&] {
    a.SetLinkDown(false);
    b.SetLinkDown(false);
    for (int i = 0; i < 3; ++i) a.Enqueue(pool.Frame(1500), 3);
  });
  sched.At(down - Time::FromNs(500), &pause_early);
  sched.At(down, &go_down);
  sched.At(up, &come_up);
  sched.RunUntil(Time::Infinite());

  // Two before the failure, three after the link came back, each on its closed-form time.
  ASSERT_EQ(at_b.arrivals.size(), 5u);
  EXPECT_EQ(at_b.arrivals[1].ps(), 2 * kSerPs + kDelayPs);
  EXPECT_EQ(at_b.arrivals[2].ps(), up.ps() + kSerPs + kDelayPs);
  EXPECT_EQ(at_a.arrivals.size(), 0u);
  // The dead link still took each frame's wire time: all 18 were serialised.
  EXPECT_EQ(a.tx_packets(), 18u);
  EXPECT_EQ(a.counters().busy_time.ps(), 18 * kSerPs);
  EXPECT_EQ(a.losses().sent_while_down, 5u);
  EXPECT_EQ(b.losses().in_flight, 8u);        // a's frames on the wire, lost at b's end
  EXPECT_EQ(b.losses().sent_while_down, 1u);  // the second PFC frame
  EXPECT_EQ(a.losses().in_flight, 1u);        // the first, on the wire when the link died
  EXPECT_EQ(a.losses().link_down_bytes, 5u * 1500u + 64u);  // + a minimum-size PFC frame
  EXPECT_EQ(a.counters().pause_frames_received[5], 0u);     // neither pause arrived
  EXPECT_EQ(a.counters().pause_frames_received[3], 0u);
  EXPECT_EQ(observed.seen.size(), 15u);
  for (const auto& [link, reason] : observed.seen) {
    EXPECT_EQ(link, 7u);
    EXPECT_EQ(reason, DropReason::kLinkDown);
  }
  EXPECT_EQ(pool.in_use(), 0u);
}

// One flow of full packets from h0 to h1 through one switch over links of a class with a bit-error
// rate: every data frame crosses two links, every ACK two the other way. Each frame is lost on
// its own with p = 1 - (1 - BER)^(8 x wire bytes), so the count of losses over the run has mean
// sum(p) and variance sum(p(1 - p)) over the frames sent; it must lie within 3 standard
// deviations (a deterministic run: it holds or fails for this seed).
TEST(LinkFaultTest, BitErrorLossesMatchTheExpectedCount) {
  constexpr double kBer = 1e-6;
  constexpr uint32_t kMtu = 4096;
  topo::Graph g;
  const topo::LinkClassId lossy = g.AddLinkClass(topo::LinkClass{
      "lossy", Rate::FromGbps(100), Time::FromNs(500), topo::Media::kAoc, 0, 0, kBer});
  const topo::NodeId h0 = g.AddNode(topo::NodeKind::kHost, 0, -1, "h0");
  const topo::NodeId h1 = g.AddNode(topo::NodeKind::kHost, 0, -1, "h1");
  const topo::NodeId s = g.AddNode(topo::NodeKind::kSwitch, 1, -1, "leaf0");
  g.Connect(h0, s, lossy);
  g.Connect(h1, s, lossy);
  const topo::RouteTable routes = topo::RouteTable::Build(g);
  Scheduler sched;
  FabricParams p;
  p.nic.mtu_payload_bytes = kMtu;
  p.nic.retransmit_timeout = Time::FromUs(20);
  p.mbuf_pool_size = kMinMbufPoolSize;
  p.random_seed = 42;
  auto f = Fabric::Create(g, routes, p, &sched);
  ASSERT_TRUE(f.ok()) << f.status().message();
  Fabric& fabric = **f;
  const MessageSpec spec{0, 1, uint64_t{20000} * kMtu, Time::Zero(), 26};
  ASSERT_TRUE(fabric.AddMessages({&spec, 1}).ok());
  sched.RunUntil(Time::Infinite());
  ASSERT_TRUE(fabric.messages().completed(0));
  EXPECT_EQ(fabric.messages().receiver[0].bytes_delivered, spec.size_bytes);

  // Data frames: payload + 62 bytes of headers and FCS + 20 of preamble and gap. ACKs: 66-byte
  // frames (with the 4-byte AETH) + 20. Ports: h0 and the switch's port to h1 carry data only,
  // h1 and the switch's port to h0 ACKs (and NAKs, the same size) only.
  const double p_data = 1 - std::pow(1 - kBer, 8.0 * (kMtu + 62 + 20));
  const double p_ack = 1 - std::pow(1 - kBer, 8.0 * (66 + 20));
  const double n_data =
      static_cast<double>(fabric.port(h0, 0).tx_packets() + fabric.port(s, 1).tx_packets());
  const double n_ack =
      static_cast<double>(fabric.port(h1, 0).tx_packets() + fabric.port(s, 0).tx_packets());
  const double mean = n_data * p_data + n_ack * p_ack;
  const double sigma = std::sqrt(n_data * p_data * (1 - p_data) + n_ack * p_ack * (1 - p_ack));
  const FabricTotals t = fabric.Totals();
  const auto lost =
      static_cast<double>(t.drops.packets[static_cast<size_t>(DropReason::kBitError)]);
  EXPECT_GT(mean, 500.0);  // long enough for the 3-sigma band to be tight (about 6% of the mean)
  EXPECT_NEAR(lost, mean, 3 * sigma) << "mean " << mean << " sigma " << sigma;
  EXPECT_EQ(t.nics.cnps_sent, 0u);
  EXPECT_EQ(t.drops.total_packets(), t.drops.packets[static_cast<size_t>(DropReason::kBitError)]);
  EXPECT_EQ(fabric.mbufs_in_use(), 0u);
}

}  // namespace
}  // namespace fe::dp
