// A switch with no path to a packet's destination drops it as no_route (the route
// table's group for that host is empty): two islands, host 0 behind switch a, host 1 behind
// switch b, and no link between the switches.
#include <gtest/gtest.h>

#include <memory>
#include <utility>

#include "dataplane/fabric.h"
#include "dataplane/packet.h"
#include "dataplane/packet_pool.h"
#include "topology/graph.h"
#include "topology/routes.h"

namespace fe::dp {
namespace {

struct Sink : PacketReceiver {
  int frames = 0;
  void Receive(uint16_t, rte_mbuf* m) override {
    ++frames;
    rte_pktmbuf_free(m);
  }
};

TEST(UnreachableTest, APacketForAHostNoPathReachesIsDroppedAsUnknownDestination) {
  const Rate rate = Rate::FromGbps(100);
  const Time delay = Time::FromNs(1000);
  topo::Graph g;
  const topo::NodeId h0 = g.AddNode(topo::NodeKind::kHost, 0, -1, "h0");
  const topo::NodeId h1 = g.AddNode(topo::NodeKind::kHost, 0, -1, "h1");
  const topo::NodeId a = g.AddNode(topo::NodeKind::kSwitch, 1, -1, "a");
  const topo::NodeId b = g.AddNode(topo::NodeKind::kSwitch, 1, -1, "b");
  g.Connect(a, h0, rate, delay);
  g.Connect(b, h1, rate, delay);
  const topo::RouteTable routes = topo::RouteTable::Build(g);
  ASSERT_TRUE(routes.NextHops(a, 1).empty());

  Scheduler sched;
  FabricParams p;
  p.mbuf_pool_size = kMinMbufPoolSize;
  auto f = Fabric::Create(g, routes, p, &sched);
  ASSERT_TRUE(f.ok()) << f.status().message();
  Fabric& fabric = **f;
  Sink back, far;
  EgressPort& uplink = fabric.AttachExternal(0, &back);
  fabric.AttachExternal(1, &far);

  rte_mbuf* m = AllocPacket(fabric.pool());
  ASSERT_NE(m, nullptr);
  RoceFields fields{};
  fields.src_host = 0;
  fields.dst_host = 1;
  fields.src_port = 49152;
  fields.dscp = 26;
  fields.opcode = BthOpcode::kRcSendOnly;
  ASSERT_TRUE(WriteRocePacket(m, fields, 1000));
  uplink.Enqueue(m, 3);
  sched.RunUntil(Time::Infinite());

  EXPECT_EQ(far.frames, 0);
  EXPECT_EQ(back.frames, 0);
  const FabricTotals t = fabric.Totals();
  EXPECT_EQ(t.drops.packets[static_cast<size_t>(DropReason::kNoRoute)], 1u);
  EXPECT_EQ(t.drops.total_packets(), 1u);
  EXPECT_EQ(fabric.mbufs_in_use(), 0u);
}

}  // namespace
}  // namespace fe::dp
