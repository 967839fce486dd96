// PFC watchdog in the fabric: a host that keeps pausing its edge switch (a pause storm) gets its
// queue declared stormed exactly one detection time after the queue first waited paused, its
// lossless traffic is dropped meanwhile, and the flow completes once the storm ends.
#include <gtest/gtest.h>

#include <memory>

#include "dataplane/fabric.h"
#include "dataplane/pfc_frame.h"
#include "topology/fat_tree.h"
#include "topology/routes.h"

namespace fe::dp {
namespace {

const Rate kRate = Rate::FromGbps(100);
const Time kDelay = Time::FromNs(1000);
const Time kDetection = Time::FromUs(50);
const Time kRestoration = Time::FromUs(50);

// Sends an XOFF of 0xFFFF quanta out of host 0's uplink every 100 us until `stop`.
class StormingHost : public EventHandler {
 public:
  StormingHost(Fabric* f, Scheduler* sched, Time stop) : f_(f), sched_(sched), stop_(stop) {}
  void OnEvent(uint64_t) override {
    rte_mbuf* m = rte_pktmbuf_alloc(f_->pool());
    PfcFrame frame;
    frame.class_enable = 1u << 3;
    frame.quanta[3] = 0xFFFF;
    const uint8_t mac[6] = {0x02, 0xfe, 0, 0, 0, 0};
    ASSERT_TRUE(WritePfcFrame(m, mac, frame));
    f_->port(f_->graph().hosts()[0], 0).EnqueueControl(m);
    if (sched_->Now() + Time::FromUs(100) < stop_) sched_->After(Time::FromUs(100), this);
  }

 private:
  Fabric* f_;
  Scheduler* sched_;
  Time stop_;
};

TEST(WatchdogTest, StormIsDetectedOnTimeAndTrafficResumesAfterRecovery) {
  auto g = topo::BuildFatTree(topo::FatTreeParams{4, kRate, kDelay});
  ASSERT_TRUE(g.ok());
  const topo::RouteTable routes = topo::RouteTable::Build(*g);
  Scheduler sched;
  FabricParams p;
  p.nic.retransmit_timeout = Time::FromUs(200);
  p.switch_params.watchdog.detection_time = kDetection;
  p.switch_params.watchdog.restoration_time = kRestoration;
  p.mbuf_pool_size = 8191;
  auto f = Fabric::Create(*g, routes, p, &sched);
  ASSERT_TRUE(f.ok()) << f.status().message();
  Fabric& fabric = **f;
  // Host 1 to host 0, both on edge switch 0.
  const MessageSpec spec{1, 0, 1024 * 1024, Time::Zero(), 26};
  ASSERT_TRUE(fabric.AddMessages({&spec, 1}).ok());
  StormingHost storm(&fabric, &sched, Time::FromUs(600));
  sched.At(Time::Zero(), &storm);

  const topo::PortRef edge = g->Peer(topo::PortRef{g->hosts()[0], 0});
  const EgressPort& down = fabric.port(edge.node, edge.port);
  // The first pause reaches the edge switch at 84 x 80 ps + 1 us; host 1's first packet (4178
  // wire bytes) arrives at 4178 x 80 ps + 1 us and waits paused from then on.
  const Time waiting_since = Time::FromPs(4178 * 80) + kDelay;
  sched.RunUntil(waiting_since + kDetection - Time::FromPs(1));
  EXPECT_FALSE(down.Stormed(3));
  sched.RunUntil(waiting_since + kDetection);
  EXPECT_TRUE(down.Stormed(3));
  EXPECT_EQ(down.counters().storms_detected[3], 1u);

  sched.RunUntil(Time::Infinite());
  EXPECT_FALSE(down.Stormed(3));
  const Switch* edge_switch = nullptr;
  for (size_t i = 0; i < fabric.num_switches(); ++i) {
    if (fabric.switch_at(i).node() == edge.node) edge_switch = &fabric.switch_at(i);
  }
  ASSERT_NE(edge_switch, nullptr);
  const DropCounters drops = edge_switch->queue_counters(edge.port, 3).drops;
  RecordProperty("watchdog_drops", static_cast<int>(drops.total_packets()));
  EXPECT_GT(drops.packets[static_cast<size_t>(DropReason::kPfcWatchdog)], 0u);
  EXPECT_EQ(drops.total_packets(), drops.packets[static_cast<size_t>(DropReason::kPfcWatchdog)]);
  // The last pause leaves host 0 at 500 us and holds 0xFFFF quanta (335.5392 us at 100 Gb/s); the
  // queue is restored 50 us after it ends, and only then can the message finish.
  const ReceiverState& m = fabric.messages().receiver[0];
  ASSERT_TRUE(m.delivered());
  EXPECT_EQ(m.bytes_delivered, spec.size_bytes);
  EXPECT_GT(m.delivered_at, Time::FromUs(500) + Time::FromPs(335'539'200) + kRestoration);
  EXPECT_EQ(fabric.mbufs_in_use(), 0u);
}

}  // namespace
}  // namespace fe::dp
