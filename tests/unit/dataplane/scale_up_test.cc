// Scale-up endpoints: two domains of two hosts, each domain joined by its own scale-up switch,
// and every host's scale-out NIC (port 0) on one leaf. A message inside a domain leaves by the
// host's scale-up port and never meets the leaf; one between domains leaves by port 0.
#include <gtest/gtest.h>

#include <memory>
#include <utility>

#include "dataplane/fabric.h"
#include "topology/graph.h"
#include "topology/routes.h"

namespace fe::dp {
namespace {

constexpr uint32_t kMtu = 4096;
// A full RoCEv2 SEND on the wire: payload + Eth 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + FCS 4,
// plus 8 preamble/SFD and 12 inter-frame gap (IEEE 802.3 clause 4).
constexpr int64_t kFullWireBytes = kMtu + 14 + 20 + 8 + 12 + 4 + 4 + 8 + 12;

struct World {
  topo::Graph graph;
  topo::RouteTable routes;
  Scheduler sched;
  std::unique_ptr<Fabric> fabric;
  topo::NodeId leaf = 0;
  topo::NodeId su[2] = {0, 0};
};

// 800 Gb/s is a whole 10 ps per byte, so the closed forms below are exact in picoseconds.
const Rate kScaleUpRate = Rate::FromGbps(800);
const Time kScaleUpDelay = Time::FromNs(150);
const Rate kScaleOutRate = Rate::FromGbps(100);
const Time kScaleOutDelay = Time::FromNs(1000);

std::unique_ptr<World> MakeWorld() {
  auto w = std::make_unique<World>();
  topo::Graph& g = w->graph;
  const topo::LinkClassId out = g.AddLinkClass(
      topo::LinkClass{"scale_out", kScaleOutRate, kScaleOutDelay, topo::Media::kPluggable});
  const topo::LinkClassId up =
      g.AddLinkClass(topo::LinkClass{"scale_up", kScaleUpRate, kScaleUpDelay});
  topo::NodeId hosts[4];
  for (int i = 0; i < 4; ++i) {
    hosts[i] = g.AddNode(topo::NodeKind::kHost, 0, -1, "h" + std::to_string(i));
    g.SetDomain(hosts[i], i / 2);
  }
  w->leaf = g.AddNode(topo::NodeKind::kSwitch, 1, -1, "leaf0");
  for (int d = 0; d < 2; ++d) {
    w->su[d] = g.AddNode(topo::NodeKind::kSwitch, 0, -1, "su" + std::to_string(d));
    g.SetDomain(w->su[d], d);
  }
  // Port 0 of every host first: the scale-out NIC.
  for (topo::NodeId h : hosts) g.Connect(h, w->leaf, out);
  for (int i = 0; i < 4; ++i) g.Connect(hosts[i], w->su[i / 2], up);
  w->routes = topo::RouteTable::Build(g);
  FabricParams p;
  p.nic.mtu_payload_bytes = kMtu;
  p.mbuf_pool_size = kMinMbufPoolSize;
  auto f = Fabric::Create(g, w->routes, p, &w->sched);
  EXPECT_TRUE(f.ok()) << f.status().message();
  w->fabric = std::move(f).value();
  return w;
}

const Switch& SwitchOf(Fabric& f, topo::NodeId node) {
  for (size_t i = 0; i < f.num_switches(); ++i) {
    if (f.switch_at(i).node() == node) return f.switch_at(i);
  }
  ADD_FAILURE() << "no switch " << node;
  return f.switch_at(0);
}

// Store and forward over two equal links: every packet serialised once at the source, the last
// one once more at the switch, and two propagation delays.
Time TwoLinkFct(int64_t packets, Rate rate, Time delay) {
  return rate.SerializationTime(kFullWireBytes) * (packets + 1) + delay * 2;
}

TEST(ScaleUpTest, TrafficInsideADomainUsesTheScaleUpFabricOnly) {
  auto w = MakeWorld();
  constexpr int64_t kPackets = 64;
  const MessageSpec specs[] = {{0, 1, kPackets * kMtu, Time::FromNs(10), 26},
                               {3, 2, kPackets * kMtu, Time::FromNs(10), 26}};
  ASSERT_TRUE(w->fabric->AddMessages(specs).ok());
  w->sched.RunUntil(Time::Infinite());
  for (size_t i = 0; i < 2; ++i) {
    const ReceiverState& m = w->fabric->messages().receiver[i];
    ASSERT_TRUE(w->fabric->messages().completed(i)) << i;
    // 800 Gb/s carries a 4,178-byte frame in 41,780 ps exactly; 1 ps per hop allows a rounding.
    const Time want = TwoLinkFct(kPackets, kScaleUpRate, kScaleUpDelay);
    EXPECT_NEAR(static_cast<double>((m.delivered_at - specs[i].start).ps()),
                static_cast<double>(want.ps()), 2.0)
        << i;
  }
  // The scale-out leaf saw nothing; each scale-up switch carried its domain's data and ACKs.
  EXPECT_EQ(SwitchOf(*w->fabric, w->leaf).counters().rx_packets, 0u);
  EXPECT_EQ(SwitchOf(*w->fabric, w->su[0]).counters().rx_packets, 2u * kPackets);
  EXPECT_EQ(SwitchOf(*w->fabric, w->su[1]).counters().rx_packets, 2u * kPackets);
  // The scale-up NICs sent the data; the scale-out NICs sent nothing at all.
  EXPECT_EQ(w->fabric->nic(0, 1).counters().data_packets_sent, uint64_t{kPackets});
  EXPECT_EQ(w->fabric->nic(1, 1).counters().acks_sent, uint64_t{kPackets});
  for (uint32_t h = 0; h < 4; ++h) {
    EXPECT_EQ(w->fabric->num_nics(h), 2u);
    EXPECT_EQ(w->fabric->nic(h).counters().data_packets_sent, 0u) << h;
    EXPECT_EQ(w->fabric->nic(h).counters().acks_sent, 0u) << h;
  }
  const FabricTotals t = w->fabric->Totals();
  EXPECT_EQ(t.nics.data_packets_sent, 2u * kPackets);
  EXPECT_EQ(t.nics.acks_received, 2u * kPackets);
  EXPECT_EQ(w->fabric->mbufs_in_use(), 0u);
}

TEST(ScaleUpTest, TrafficBetweenDomainsUsesTheScaleOutNics) {
  auto w = MakeWorld();
  constexpr int64_t kPackets = 16;
  const MessageSpec spec{1, 2, kPackets * kMtu, Time::Zero(), 26};
  ASSERT_TRUE(w->fabric->AddMessages({&spec, 1}).ok());
  w->sched.RunUntil(Time::Infinite());
  const ReceiverState& m = w->fabric->messages().receiver[0];
  ASSERT_TRUE(w->fabric->messages().completed(0));
  EXPECT_EQ((m.delivered_at - spec.start).ps(),
            TwoLinkFct(kPackets, kScaleOutRate, kScaleOutDelay).ps());
  EXPECT_EQ(SwitchOf(*w->fabric, w->leaf).counters().rx_packets, 2u * kPackets);
  EXPECT_EQ(SwitchOf(*w->fabric, w->su[0]).counters().rx_packets, 0u);
  EXPECT_EQ(SwitchOf(*w->fabric, w->su[1]).counters().rx_packets, 0u);
  EXPECT_EQ(w->fabric->nic(1).counters().data_packets_sent, uint64_t{kPackets});
  EXPECT_EQ(w->fabric->nic(2).counters().acks_sent, uint64_t{kPackets});
}

}  // namespace
}  // namespace fe::dp
