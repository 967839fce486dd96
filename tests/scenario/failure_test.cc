// Failures scheduled in the topology section: links, optical engines and switches going down and
// up, routes reconverging around them, and messages that lose every path given up so that the
// run ends.
#include "control/emulation/emulation.h"
#include "control/emulation/failure_injector.h"
#include "topology_text.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "control/run/software_run.h"
#include "control/scenario/scenario_loader.h"
#include "topology/fat_tree.h"
#include "topology/routes.h"

namespace fe::control {
namespace {

using fe::testing::FatTree4;
using fe::testing::TopologyText;

// A fabric over a hand-built graph with the topology section's failures scheduled: what
// BuildEmulation makes from a scenario.
using World = Emulation;

std::unique_ptr<World> MakeWorld(topo::Graph graph, const std::string& failures,
                                 const dp::NicParams& nic = {},
                                 int64_t switch_buffer_bytes = 16 << 20) {
  auto w = std::make_unique<World>();
  w->graph = std::move(graph);
  w->routes = topo::RouteTable::Build(w->graph);
  dp::FabricParams p;
  p.nic = nic;
  p.switch_params.buffer.total_bytes = switch_buffer_bytes;
  p.mbuf_pool_size = 65535;
  p.pool_memory = dp::PoolMemory::kHostPages;
  auto f = dp::Fabric::Create(w->graph, w->routes, p, &w->sched);
  EXPECT_TRUE(f.ok()) << f.status().message();
  w->fabric = std::move(f).value();
  auto inj = FailureInjector::Create(TopologyText(failures), w->fabric.get(), &w->sched);
  EXPECT_TRUE(inj.ok()) << inj.status().message();
  w->failures = std::move(inj).value();
  return w;
}

struct Call final : EventHandler {
  explicit Call(std::function<void()> f) : fn(std::move(f)) {}
  void OnEvent(uint64_t) override { fn(); }
  std::function<void()> fn;
};

uint64_t Drops(const dp::FabricTotals& t, dp::DropReason r) {
  return t.drops.packets[static_cast<size_t>(r)];
}

// Everything a run ends with that a second run of the same inputs must repeat.
struct Outcome {
  std::vector<int64_t> per_message;
  std::vector<uint64_t> totals;
  bool operator==(const Outcome&) const = default;
};

Outcome OutcomeOf(World& w) {
  Outcome o;
  const dp::MessageTable& messages = w.fabric->messages();
  for (uint32_t id = 0; id < messages.size(); ++id) {
    const dp::SenderState& m = messages.sender[id];
    o.per_message.push_back(m.completed_at.ps());
    o.per_message.push_back(messages.receiver[id].delivered_at.ps());
    o.per_message.push_back(static_cast<int64_t>(m.retransmitted_packets));
    o.per_message.push_back(m.unreachable);
  }
  const dp::FabricTotals t = w.fabric->Totals();
  o.totals.push_back(t.packet_hops);
  o.totals.push_back(t.wire_bytes);
  for (uint64_t d : t.drops.packets) o.totals.push_back(d);
  for (const FailureEventSummary& e : w.failures->Summary().events) {
    o.totals.push_back(e.frames_lost);
    o.totals.push_back(e.flows_affected);
  }
  return o;
}

// Frames leave links only into a receiver or a loss: every frame sent on a link was received by
// a switch, by a NIC (data, ACK, CNP or a NIC drop), ended as a PFC frame at a port's MAC, or
// was lost.
void ExpectFramesConserved(World& w) {
  const dp::FabricTotals t = w.fabric->Totals();
  uint64_t received = t.nics.data_packets_received + t.nics.acks_received + t.nics.cnps_received +
                      t.nics.drops.total_packets();
  for (size_t i = 0; i < w.fabric->num_switches(); ++i) {
    received += w.fabric->switch_at(i).counters().rx_packets;
  }
  for (size_t i = 0; i < w.fabric->num_ports(); ++i) {
    for (uint64_t n : w.fabric->port_at(i).counters().pause_frames_received) received += n;
  }
  EXPECT_EQ(t.packet_hops,
            received + Drops(t, dp::DropReason::kLinkDown) + Drops(t, dp::DropReason::kBitError));
  EXPECT_EQ(w.fabric->mbufs_in_use(), 0u);
}

// Lossless (PFC on priority 3) k = 4 fat-tree; edge0-agg0 dies at 30 us and routes exclude it
// 20 us later. Pod 0's hosts send out of the pod and pods 2-3 incast into host 0 through small
// switch buffers, so the link is busy both ways and PFC pauses the fabric around it.
std::unique_ptr<World> RunLinkDown() {
  dp::NicParams nic;
  nic.retransmit_timeout = Time::FromUs(300);
  auto w = MakeWorld(FatTree4(), R"pb(
                       failure {
                         at_ns: 30000
                         link { a: "edge0" b: "agg0" }
                       }
                       routing { reconverge_delay_ns: 20000 }
                     )pb",
                     nic, 1 << 20);
  std::vector<dp::MessageSpec> specs;
  for (uint32_t h = 0; h < 4; ++h) specs.push_back({h, h + 4, 2 << 20, Time::Zero(), 26});
  for (uint32_t h = 8; h < 16; ++h) specs.push_back({h, 0, 2 << 20, Time::FromUs(5), 26});
  EXPECT_TRUE(w->fabric->AddMessages(specs).ok());
  return w;
}

TEST(FailureTest, LinkDownLosesExactlyWhatWasSentIntoItAndEveryFlowCompletes) {
  auto w = RunLinkDown();
  const topo::NodeId edge0 = *w->graph.FindNode("edge0");
  const topo::NodeId agg0 = *w->graph.FindNode("agg0");
  // The link's two ends: edge0's port 2 (its first uplink) and agg0's port 0.
  const dp::EgressPort& up = w->fabric->port(edge0, 2);
  const dp::EgressPort& down = w->fabric->port(agg0, 0);
  ASSERT_EQ(w->graph.Peer({edge0, 2}).node, agg0);
  const Time fail_at = Time::FromUs(30);
  const Time reroute_at = Time::FromUs(50);

  // Probes in domain 0 at the failure's and the reconvergence's instants: the failure (scheduled
  // first) has run, and no port has sent at that instant yet.
  w->failures->Start();
  uint64_t sent_at_fail = 0, sent_at_reroute = 0, queued_at_reroute = 0, pfc_at_reroute = 0;
  auto pfc_sent = [&] {
    uint64_t n = 0;
    for (size_t i = 0; i < w->fabric->num_switches(); ++i) {
      const dp::Switch& s = w->fabric->switch_at(i);
      const uint16_t port = s.node() == edge0 ? 2 : s.node() == agg0 ? 0 : UINT16_MAX;
      if (port == UINT16_MAX) continue;
      for (uint8_t q = 0; q < 8; ++q) {
        n += s.queue_counters(port, q).pause_frames_sent +
             s.queue_counters(port, q).resume_frames_sent;
      }
    }
    return n;
  };
  Call at_fail([&] {
    EXPECT_TRUE(up.link_down());
    sent_at_fail = up.tx_packets() + down.tx_packets();
  });
  Call at_reroute([&] {
    sent_at_reroute = up.tx_packets() + down.tx_packets();
    for (int q = 0; q < 8; ++q) queued_at_reroute += up.queue_packets(q) + down.queue_packets(q);
    pfc_at_reroute = pfc_sent();
  });
  w->sched.At(fail_at, &at_fail);
  w->sched.At(reroute_at, &at_reroute);
  w->sched.RunUntil(Time::Infinite());
  ASSERT_TRUE(w->sched.empty());

  // Every frame either end started after the failure was lost, and only those and the frames on
  // the wire at that instant: at most one propagation delay's worth each way, 1 us / the
  // 64-byte minimum frame's 6.72 ns, + 1.
  const uint64_t sent_dead = up.tx_packets() + down.tx_packets() - sent_at_fail;
  EXPECT_GT(sent_at_reroute - sent_at_fail, 0u);
  EXPECT_EQ(up.losses().sent_while_down + down.losses().sent_while_down, sent_dead);
  const uint64_t in_flight = up.losses().in_flight + down.losses().in_flight;
  EXPECT_LE(in_flight, 2u * (1000000 / 6720 + 1));
  // After the reconvergence the dead ends sent only what was already queued for them, and the
  // PFC frames their switches still owed the ingress there.
  EXPECT_LE(up.tx_packets() + down.tx_packets() - sent_at_reroute,
            queued_at_reroute + pfc_sent() - pfc_at_reroute);

  const dp::FabricTotals t = w->fabric->Totals();
  uint64_t pauses = 0;
  for (size_t i = 0; i < w->fabric->num_ports(); ++i) {
    for (uint64_t n : w->fabric->port_at(i).counters().pause_frames_received) pauses += n;
  }
  EXPECT_GT(pauses, 0u);  // the lossless machinery was at work around the failure
  EXPECT_EQ(Drops(t, dp::DropReason::kLinkDown), sent_dead + in_flight);
  EXPECT_EQ(t.drops.total_packets(), Drops(t, dp::DropReason::kLinkDown));  // lossless otherwise
  ExpectFramesConserved(*w);
  // Another path existed for every flow: all complete, none given up.
  const dp::MessageTable& messages = w->fabric->messages();
  for (uint32_t id = 0; id < messages.size(); ++id) {
    EXPECT_TRUE(messages.completed(id));
    EXPECT_FALSE(messages.sender[id].unreachable);
    EXPECT_EQ(messages.receiver[id].bytes_delivered, messages.spec(id).size_bytes);
  }

  const FailureSummary s = w->failures->Summary();
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.events[0].kind, "link_down");
  EXPECT_EQ(s.events[0].target, "edge0-agg0[0]");
  EXPECT_EQ(s.events[0].at, fail_at);
  EXPECT_EQ(s.events[0].reroute_at, reroute_at);
  EXPECT_EQ(s.events[0].frames_lost, sent_dead + in_flight);
  EXPECT_GT(s.events[0].flows_affected, 0u);
  EXPECT_LE(s.events[0].flows_affected, w->fabric->messages().size());
  EXPECT_EQ(s.events[0].unreachable_flows, 0u);
  EXPECT_EQ(s.unreachable_flow_ids.size(), 0u);
}

TEST(FailureTest, LinkDownRunsAreDeterministic) {
  auto a = RunLinkDown();
  a->failures->Start();
  a->sched.EnableWindows(a->fabric->lookahead(), a->fabric->num_domains());
  a->sched.RunUntil(Time::Infinite());
  auto b = RunLinkDown();
  b->failures->Start();
  b->sched.EnableWindows(b->fabric->lookahead(), b->fabric->num_domains());
  b->sched.RunUntil(Time::Infinite());
  EXPECT_GT(Drops(a->fabric->Totals(), dp::DropReason::kLinkDown), 0u);
  EXPECT_TRUE(OutcomeOf(*a) == OutcomeOf(*b));
}

// One switch with nine host ports: 0-2 and 4-8 on co-packaged optics of 4 ports per engine,
// port 3 on copper between them. Engines fill in port order over the CPO ports only: engine 0
// is ports {0, 1, 2, 4}, engine 1 ports {5, 6, 7, 8}.
TEST(FailureTest, CpoEngineFailureTakesDownExactlyItsPorts) {
  topo::Graph g;
  const topo::LinkClassId cpo = g.AddLinkClass(
      topo::LinkClass{"cpo", Rate::FromGbps(400), Time::FromNs(20), topo::Media::kCpo, 5.0, 4});
  const topo::LinkClassId dac =
      g.AddLinkClass(topo::LinkClass{"dac", Rate::FromGbps(400), Time::FromNs(10)});
  std::vector<topo::NodeId> hosts;
  for (int i = 0; i < 9; ++i) {
    hosts.push_back(g.AddNode(topo::NodeKind::kHost, 0, -1, "h" + std::to_string(i)));
  }
  const topo::NodeId leaf = g.AddNode(topo::NodeKind::kSwitch, 1, -1, "leaf0");
  for (int i = 0; i < 9; ++i) g.Connect(leaf, hosts[i], i == 3 ? dac : cpo);
  auto w = MakeWorld(std::move(g), R"pb(failure {
                                          at_ns: 1000
                                          engine { switch_name: "leaf0" engine: 1 }
                                        })pb");
  // A flow to a host behind the dead engine starts after the failure, one to a live port too.
  const std::vector<dp::MessageSpec> specs = {{0, 6, 1 << 16, Time::FromUs(2), 26},
                                              {0, 3, 1 << 16, Time::FromUs(2), 26}};
  ASSERT_TRUE(w->fabric->AddMessages(specs).ok());
  w->failures->Start();
  w->sched.RunUntil(Time::Infinite());
  for (uint16_t p = 0; p < 9; ++p) {
    EXPECT_EQ(w->fabric->port(leaf, p).link_down(), p >= 5) << "port " << p;
    EXPECT_EQ(w->fabric->link_up(w->graph.node(leaf).links[p]), p < 5) << "port " << p;
  }
  EXPECT_TRUE(w->fabric->messages().sender[0].unreachable);
  EXPECT_FALSE(w->fabric->messages().completed(0));
  EXPECT_TRUE(w->fabric->messages().completed(1));
  const FailureSummary s = w->failures->Summary();
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.events[0].kind, "engine_down");
  EXPECT_EQ(s.events[0].target, "leaf0.engine1");
  EXPECT_EQ(s.unreachable_flow_ids, std::vector<uint32_t>{0});
  ExpectFramesConserved(*w);
}

// h1's only link dies under a running flow: once routes reconverge nothing reaches h1, the flow
// is given up, as is one that starts later, and the run ends.
TEST(FailureTest, HostLinkDownWithNoOtherPathMakesTheFlowUnreachableAndTheRunEnds) {
  topo::Graph g;
  const topo::NodeId h0 = g.AddNode(topo::NodeKind::kHost, 0, -1, "h0");
  const topo::NodeId h1 = g.AddNode(topo::NodeKind::kHost, 0, -1, "h1");
  const topo::NodeId leaf = g.AddNode(topo::NodeKind::kSwitch, 1, -1, "leaf0");
  g.Connect(h0, leaf, Rate::FromGbps(100), Time::FromNs(500));
  g.Connect(h1, leaf, Rate::FromGbps(100), Time::FromNs(500));
  auto w = MakeWorld(std::move(g), R"pb(
    failure {
      at_ns: 5000
      link { a: "leaf0" b: "h1" }
    }
    routing { reconverge_delay_ns: 2000 }
  )pb");
  const std::vector<dp::MessageSpec> specs = {{0, 1, 10 << 20, Time::Zero(), 26},
                                              {1, 0, 10 << 20, Time::Zero(), 26},
                                              {0, 1, 1 << 20, Time::FromUs(100), 26}};
  ASSERT_TRUE(w->fabric->AddMessages(specs).ok());
  w->failures->Start();
  w->sched.RunUntil(Time::Infinite());
  ASSERT_TRUE(w->sched.empty());
  const dp::MessageTable& messages = w->fabric->messages();
  for (uint32_t id = 0; id < messages.size(); ++id) {
    EXPECT_TRUE(messages.sender[id].unreachable);
    EXPECT_FALSE(messages.completed(id));
    EXPECT_LT(messages.receiver[id].bytes_delivered, messages.spec(id).size_bytes);
  }
  const FailureSummary s = w->failures->Summary();
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.events[0].reroute_at, Time::FromUs(7));
  EXPECT_EQ(s.events[0].unreachable_flows, 2u);  // the two running; the third at its start
  EXPECT_EQ(s.unreachable_flow_ids.size(), 3u);
  EXPECT_GT(s.events[0].frames_lost, 0u);
  EXPECT_EQ(s.events[0].flows_affected, 2u);
  ExpectFramesConserved(*w);
}

// A link's explicit up mends the link, not the switch at its end: agg0 dies at 1 us, edge0-agg0
// comes up at 2 us, and every link of agg0 must stay down (no frame crosses them) until agg0
// itself comes up at 40 us, when all four are back.
TEST(FailureTest, ALinkUpDoesNotReviveASwitchStillDown) {
  auto w = MakeWorld(FatTree4(), R"pb(
    failure { at_ns: 1000 switch_name: "agg0" }
    failure {
      at_ns: 2000
      link { a: "edge0" b: "agg0" }
      up: true
    }
    failure { at_ns: 40000 switch_name: "agg0" up: true }
  )pb");
  const topo::NodeId agg0 = *w->graph.FindNode("agg0");
  const auto agg0_links_up = [&] {
    uint32_t up = 0;
    for (const topo::LinkId l : w->graph.node(agg0).links) up += w->fabric->link_up(l) ? 1 : 0;
    return up;
  };
  w->failures->Start();
  w->sched.RunUntil(Time::FromUs(30));
  EXPECT_EQ(agg0_links_up(), 0u);
  w->sched.RunUntil(Time::Infinite());
  EXPECT_EQ(agg0_links_up(), 4u);  // k = 4 ports
}

// The same link failed by two entries at once: its frames are lost once, so they count to one
// event, and the events' frames_lost add up to the link_down drops.
TEST(FailureTest, OverlappingFailuresCountEachLossOnce) {
  auto w = MakeWorld(FatTree4(), R"pb(
    failure {
      at_ns: 5000
      link { a: "edge0" b: "agg0" }
    }
    failure {
      at_ns: 5000
      link { a: "edge0" b: "agg0" }
    }
    routing { reconverge_delay_ns: 10000 }
  )pb");
  std::vector<dp::MessageSpec> specs;
  for (uint32_t h = 0; h < 4; ++h) specs.push_back({h, 15 - h, 1 << 20, Time::Zero(), 26});
  ASSERT_TRUE(w->fabric->AddMessages(specs).ok());
  w->failures->Start();
  w->sched.RunUntil(Time::Infinite());
  const FailureSummary s = w->failures->Summary();
  ASSERT_EQ(s.events.size(), 2u);
  const uint64_t link_down = Drops(w->fabric->Totals(), dp::DropReason::kLinkDown);
  EXPECT_GT(link_down, 0u);
  EXPECT_EQ(s.events[0].frames_lost, link_down);
  EXPECT_EQ(s.events[1].frames_lost, 0u);
}

}  // namespace
}  // namespace fe::control
