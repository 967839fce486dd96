// Eight flows into one 100 Gb/s port of a k = 4 fat-tree, once under HPCC and once under DCQCN on
// the same fabric: HPCC keeps the port busy with almost no standing queue and shares it fairly;
// DCQCN never leaves it idle much longer than one increase-timer period. The steady-state figures
// are read over the second half of the time all eight flows are active.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "dataplane/fabric.h"
#include "topology/fat_tree.h"
#include "topology/routes.h"

namespace fe::dp {
namespace {

const Rate kRate = Rate::FromGbps(100);
const Time kDelay = Time::FromNs(1000);
constexpr uint32_t kMtu = 4096;
constexpr uint64_t kMessageBytes = 2 * 1024 * 1024;
constexpr uint32_t kReceiver = 0;
constexpr uint32_t kFlows = 8;
// Hosts 4..11 to host 0 cross 6 links (host, edge, agg, core, agg, edge, host): base RTT
// 2 x 6 x (1 us + 4178 wire bytes of a full frame at 100 Gb/s = 334.24 ns).
const Time kBaseRtt = Time::FromPs(2 * 6 * (1'000'000 + 334'240));
const Time kSample = Time::FromUs(1);
// Every flow's frames cross the bottleneck once (no loss under PFC): 512 full frames of 4178 wire
// bytes each, 334.24 ns apiece at 100 Gb/s.
const Time kBottleneckBusy = Time::FromPs(kFlows * 512 * 334'240);

struct Figures {
  double utilisation = 0;       // busy fraction of the bottleneck port
  double mean_queue_bytes = 0;  // time average of its queues
  double jain = 0;              // over the bytes each flow delivered
  Time window;
  // Over the whole run, from the start to the last delivery.
  Time busy;
  Time last_done;
  Time longest_idle;  // in whole samples, between the first busy sample and the last delivery
};

double Jain(const std::vector<double>& x) {
  double sum = 0, sum_sq = 0;
  for (double v : x) {
    sum += v;
    sum_sq += v * v;
  }
  return sum * sum / (static_cast<double>(x.size()) * sum_sq);
}

Figures RunIncast(const NicParams& nic) {
  auto g = topo::BuildFatTree(topo::FatTreeParams{4, kRate, kDelay});
  EXPECT_TRUE(g.ok());
  const topo::Graph graph = std::move(g).value();
  const topo::RouteTable routes = topo::RouteTable::Build(graph);
  Scheduler sched;
  FabricParams p;
  p.nic = nic;
  p.nic.mtu_payload_bytes = kMtu;
  auto f = Fabric::Create(graph, routes, p, &sched);
  EXPECT_TRUE(f.ok()) << f.status().message();
  Fabric& fabric = **f;
  EXPECT_EQ(PathBaseRtt(graph, routes, 4, kReceiver, kMtu), kBaseRtt);
  std::vector<MessageSpec> specs;
  for (uint32_t s = 4; s < 4 + kFlows; ++s) {
    specs.push_back({s, kReceiver, kMessageBytes, Time::Zero(), 26});
  }
  EXPECT_TRUE(fabric.AddMessages(specs).ok());
  const topo::PortRef edge = graph.Peer(topo::PortRef{graph.hosts()[kReceiver], 0});
  const EgressPort& bottleneck = fabric.port(edge.node, edge.port);

  struct Sample {
    Time at;
    Time busy;
    double queue_byte_ps;
    std::vector<uint64_t> delivered;
  };
  std::vector<Sample> samples;
  Time first_done = Time::Infinite();
  Time last_done = Time::Zero();
  uint32_t done = 0;
  for (Time t = Time::Zero(); done < kFlows; t += kSample) {
    sched.RunUntil(t);
    Sample s{t, bottleneck.counters().busy_time, 0, {}};
    for (int q = 0; q < kNumQueues; ++q) s.queue_byte_ps += bottleneck.QueueByteTime(q, t);
    done = 0;
    for (const ReceiverState& m : fabric.messages().receiver) {
      s.delivered.push_back(m.bytes_delivered);
      if (m.delivered()) {
        ++done;
        first_done = std::min(first_done, m.delivered_at);
        last_done = std::max(last_done, m.delivered_at);
      }
    }
    samples.push_back(std::move(s));
  }
  sched.RunUntil(Time::Infinite());
  for (const ReceiverState& m : fabric.messages().receiver)
    EXPECT_EQ(m.bytes_delivered, kMessageBytes);

  // The second half of [0, first completion), on sample boundaries.
  size_t i1 = 0;
  while (samples[i1 + 1].at < first_done) ++i1;
  size_t i0 = 0;
  while (samples[i0].at < Time::FromPs(first_done.ps() / 2)) ++i0;
  const Sample& a = samples[i0];
  const Sample& b = samples[i1];
  Figures fig;
  fig.window = b.at - a.at;
  const double window_ps = static_cast<double>(fig.window.ps());
  fig.utilisation = static_cast<double>((b.busy - a.busy).ps()) / window_ps;
  fig.mean_queue_bytes = (b.queue_byte_ps - a.queue_byte_ps) / window_ps;
  std::vector<double> bytes;
  for (uint32_t i = 0; i < kFlows; ++i) {
    bytes.push_back(static_cast<double>(b.delivered[i] - a.delivered[i]));
  }
  fig.jain = Jain(bytes);

  fig.busy = bottleneck.counters().busy_time;
  fig.last_done = last_done;
  size_t idle_from = 0;
  for (size_t i = 1; i < samples.size(); ++i) {
    if (samples[i].busy != samples[i - 1].busy || samples[i - 1].busy == Time::Zero()) {
      idle_from = i;
    } else {
      fig.longest_idle = std::max(fig.longest_idle, samples[i].at - samples[idle_from].at);
    }
  }
  return fig;
}

NicParams DcqcnAsShipped() {
  NicParams nic;
  nic.cc = CongestionControl::kDcqcn;
  // As ConnectX NICs ship: the NVIDIA preset with its 4 us CNP interval.
  nic.dcqcn = cong::DcqcnParams::NvidiaConnectX();
  nic.cnp_pacer.min_interval = Time::FromUs(4);
  return nic;
}

TEST(HpccIncastTest, FullLinkFairSharesAndAQueueFarBelowDcqcns) {
  NicParams hpcc;
  hpcc.cc = CongestionControl::kHpcc;
  // The paper's W_AI = W_init (1 - eta) / N for N flows on the link. Its default for 100 flows
  // adds 100 B per RTT and leaves unequal windows unequal for longer than these flows last.
  hpcc.hpcc.expected_flows = kFlows;
  const Figures h = RunIncast(hpcc);
  const Figures d = RunIncast(DcqcnAsShipped());
  RecordProperty("hpcc_utilisation_permille", static_cast<int>(h.utilisation * 1000));
  RecordProperty("hpcc_mean_queue_bytes", static_cast<int>(h.mean_queue_bytes));
  RecordProperty("hpcc_jain_permille", static_cast<int>(h.jain * 1000));
  RecordProperty("dcqcn_utilisation_permille", static_cast<int>(d.utilisation * 1000));
  RecordProperty("dcqcn_mean_queue_bytes", static_cast<int>(d.mean_queue_bytes));
  RecordProperty("dcqcn_jain_permille", static_cast<int>(d.jain * 1000));
  // The window must span many base RTTs for the figures to be steady-state ones.
  EXPECT_GT(h.window.ps(), 10 * kBaseRtt.ps());
  // HPCC aims at eta = 0.95 of the link; the issue asks for at least 90%.
  EXPECT_GE(h.utilisation, 0.90);
  EXPECT_GE(h.jain, 0.95);
  // DCQCN reacts only to marks, which need a queue above the WRED band's Kmin; HPCC reacts to
  // utilisation before a queue builds. Measured: HPCC 7.3 KB against DCQCN 192 KB (26x).
  EXPECT_LT(10 * h.mean_queue_bytes, d.mean_queue_bytes);
}

TEST(DcqcnIncastTest, ThrottledQpsResumeWithinOneIncreasePeriod) {
  const NicParams nic = DcqcnAsShipped();
  const Figures d = RunIncast(nic);
  RecordProperty("dcqcn_last_done_ns", static_cast<int>(d.last_done.ps() / 1000));
  RecordProperty("dcqcn_longest_idle_ns", static_cast<int>(d.longest_idle.ps() / 1000));
  RecordProperty("dcqcn_run_utilisation_permille",
                 static_cast<int>(1000 * d.busy.ps() / d.last_done.ps()));
  // Conservation: the port was busy exactly as long as the frames of all eight flows take.
  EXPECT_EQ(d.busy, kBottleneckBusy);
  // The bottleneck idles only when every unfinished QP is throttled and its queue has drained.
  // The last cut then follows within the trip of the last marked frame to the receiver (1 link)
  // and of its CNP to the sender (6 links), plus at most one rate-reduce monitor period (a
  // coalesced cut); each cut arms the increase timer one period T ahead. The increase re-spaces
  // the QP's waiting packet at once (its gap at the recovered rate, tens of Gb/s here, is below
  // 100 ns), and the packet crosses 5 links to the bottleneck. The 12 link crossings are those of
  // the base RTT, so the port idles at most T + base RTT + monitor period; two samples of slack
  // for the sampling. Were the wait fixed at the cut, a QP at the 1 Mb/s floor would idle the
  // port for a whole floor gap: 4178 B / 1 Mb/s = 33.4 ms.
  const cong::DcqcnParams& p = nic.dcqcn;
  EXPECT_LE(d.longest_idle,
            p.increase_timer_period + kBaseRtt + p.rate_reduce_monitor_period + kSample * 2);
  // A run that lost a floor gap could be busy at most 1369.05 us / 33.4 ms = 4.1% of the time
  // until its last delivery; ask for ten times that. (Measured: 1735.9 us to the last delivery,
  // 78.9%; synchronised cuts of all eight flows idle the port twice, about 100 and 230 us.)
  const Time floor_gap = p.min_rate.SerializationTime(4178);
  const double stalled_utilisation =
      static_cast<double>(kBottleneckBusy.ps()) / static_cast<double>(floor_gap.ps());
  EXPECT_GT(static_cast<double>(d.busy.ps()) / static_cast<double>(d.last_done.ps()),
            10 * stalled_utilisation);
}

}  // namespace
}  // namespace fe::dp
