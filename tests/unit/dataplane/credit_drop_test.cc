// A frame a switch drops as it arrives over a credit link never takes the buffer its credit
// stood for, so the credit goes back to the sender with the drop, as an advertisement, instead
// of staying spent until a resync recovers it (the sender is blocked for a resync period first).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "dataplane/credit_port.h"
#include "dataplane/fabric.h"
#include "dataplane/packet.h"
#include "dataplane/packet_pool.h"
#include "topology/graph.h"
#include "topology/routes.h"

namespace fe::dp {
namespace {

// A 60-byte UDP frame from host 0 (198.18.0.1) to host 1 (198.18.0.2) with IPv4 TTL 1, which
// the switch (decrementing TTLs) drops on arrival.
rte_mbuf* TtlOneFrame(rte_mempool* pool) {
  std::vector<uint8_t> b = {0x02, 0xfe, 0, 0, 0, 1, 0x02, 0xfe, 0, 0, 0, 0, 0x08, 0x00};
  const std::vector<uint8_t> ip = {0x45, 0, 0,   46, 0, 0, 0x40, 0,  1, 17,
                                   0,    0, 198, 18, 0, 1, 198,  18, 0, 2};
  b.insert(b.end(), ip.begin(), ip.end());
  b.insert(b.end(), {0x9c, 0x40, 0x13, 0x88, 0, 26, 0, 0});
  b.resize(60, 0);
  rte_mbuf* m = AllocPacket(pool);
  if (m == nullptr) return nullptr;
  std::memcpy(rte_pktmbuf_append(m, static_cast<uint16_t>(b.size())), b.data(), b.size());
  ResetMeta(m);
  return m;
}

TEST(CreditDropTest, FrameDroppedOnArrivalReturnsItsCreditWithoutResync) {
  topo::Graph g;
  topo::LinkClass c;
  c.name = "credit";
  c.rate = Rate::FromGbps(100);
  c.delay = Time::FromNs(1000);
  c.credit = topo::CreditFlowControl{.buffer_bytes = 65536,
                                     .update_delay = Time::FromNs(200),
                                     .resync_period = Time::FromNs(3000)};
  const topo::LinkClassId cls = g.AddLinkClass(c);
  const topo::NodeId h0 = g.AddNode(topo::NodeKind::kHost, 0, 0, "h0");
  const topo::NodeId h1 = g.AddNode(topo::NodeKind::kHost, 0, 0, "h1");
  const topo::NodeId sw = g.AddNode(topo::NodeKind::kSwitch, 1, 0, "sw");
  g.Connect(h0, sw, cls);
  g.Connect(h1, sw, cls);
  const topo::RouteTable routes = topo::RouteTable::Build(g);
  Scheduler sched;
  FabricParams p;
  p.switch_params.decrement_ttl = true;
  p.mbuf_pool_size = kMinMbufPoolSize;
  auto f = Fabric::Create(g, routes, p, &sched);
  ASSERT_TRUE(f.ok()) << f.status().message();
  // The frame goes straight into host 0's port (its NIC has nothing to send), which keeps the
  // link duplex: the switch's advertisements come back over it.
  EgressPort& uplink = (*f)->port(h0, 0);
  const CreditPort* credit = uplink.credit_port();
  ASSERT_NE(credit, nullptr);
  ASSERT_EQ(credit->available_bytes(0), 65536);

  rte_mbuf* m = TtlOneFrame((*f)->pool());
  ASSERT_NE(m, nullptr);
  uplink.Enqueue(m, 0);
  sched.RunUntil(Time::Infinite());

  EXPECT_EQ((*f)->switch_at(0).counters().drops.total_packets(), 1u);
  // Conservation of credit: nothing of the sender's is in the switch's buffer, so all of it is
  // the sender's again, and no resync was needed for that.
  EXPECT_EQ(credit->available_bytes(0), 65536);
  EXPECT_EQ(credit->counters().resyncs, 0u);
  EXPECT_EQ(credit->counters().overdrafts, 0u);
}

}  // namespace
}  // namespace fe::dp
