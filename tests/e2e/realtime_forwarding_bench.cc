// Forwarding rate of the real-time loop through a 5-switch emulated path (host 0 to host 15 of a
// k = 4 fat-tree: host-edge-agg-core-agg-edge-host, 100 Gb/s links, 1 us each), with ring ports
// standing for the NICs. A generator thread on the second CPU offers frames on host 0's port and
// counts what leaves host 15's port; the loop runs on the first CPU, alone.
//
//   realtime_forwarding_bench [--frame-bytes 64] [--seconds 5] [--rate-mpps 0]
// --frame-bytes counts the FCS (64: the Ethernet minimum); --rate-mpps 0 offers as fast as the
// rx ring takes frames, which measures the loop's capacity; a rate paces the offer on the TSC.
#include <pthread.h>
#include <rte_cycles.h>
#include <rte_mbuf.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "dataplane/eal.h"
#include "dataplane/fabric.h"
#include "dataplane/packet.h"
#include "dataplane/realtime/eth_port.h"
#include "dataplane/realtime/external_host.h"
#include "dataplane/realtime/realtime_loop.h"
#include "dataplane/realtime/tsc_clock.h"
#include "ring_ports.h"
#include "topology/fat_tree.h"
#include "topology/routes.h"

namespace {

using namespace fe;

struct Options {
  uint32_t frame_bytes = 64;
  double seconds = 5;
  double rate_mpps = 0;
};

Options Parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    const double v = std::atof(argv[i + 1]);
    if (k == "--frame-bytes") o.frame_bytes = static_cast<uint32_t>(v);
    if (k == "--seconds") o.seconds = v;
    if (k == "--rate-mpps") o.rate_mpps = v;
  }
  return o;
}

// UDP from 198.18.0.1 (host 0) to 198.18.0.16 (host 15); frame_bytes - 4 (FCS) stored bytes.
std::vector<uint8_t> Template(uint32_t frame_bytes) {
  std::vector<uint8_t> f(frame_bytes - 4, 0);
  const uint16_t ip_total = static_cast<uint16_t>(f.size() - 14);
  const uint16_t udp_len = static_cast<uint16_t>(ip_total - 20);
  const uint8_t head[] = {0x02,
                          0xfe,
                          0,
                          0,
                          0,
                          15,
                          0x52,
                          0x54,
                          0,
                          0,
                          0,
                          1,
                          0x08,
                          0x00,
                          0x45,
                          0,
                          static_cast<uint8_t>(ip_total >> 8),
                          static_cast<uint8_t>(ip_total),
                          0,
                          0,
                          0x40,
                          0,
                          64,
                          17,
                          0,
                          0,
                          198,
                          18,
                          0,
                          1,
                          198,
                          18,
                          0,
                          16,
                          0xc0,
                          0x00,
                          0x13,
                          0x88,
                          static_cast<uint8_t>(udp_len >> 8),
                          static_cast<uint8_t>(udp_len),
                          0,
                          0};
  std::memcpy(f.data(), head, sizeof(head));
  return f;
}

constexpr size_t kHeaderBytes = 14 + 20 + 8;

struct Generator {
  rte_mempool* pool;
  testing::RingPort in;   // host 0's port: the generator feeds its rx ring
  testing::RingPort out;  // host 15's port: the generator empties its tx ring
  std::vector<uint8_t> frame;
  double rate_pps;
  std::atomic<bool> stop{false};
  uint64_t offered = 0;
  uint64_t refused = 0;  // rx ring full: the loop, not the generator, is the limit
  uint64_t paced_refused = 0;
  uint64_t delivered = 0;

  void Run() {
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    CPU_SET(1, &cpus);
    pthread_setaffinity_np(pthread_self(), sizeof(cpus), &cpus);
    const uint64_t hz = rte_get_tsc_hz();
    const uint64_t start = rte_rdtsc();
    rte_mbuf* burst[fe::dp::kBurstSize];
    uint16_t port = 0;
    while (!stop.load(std::memory_order_relaxed)) {
      unsigned n = fe::dp::kBurstSize;
      if (rate_pps > 0) {
        const auto due = static_cast<uint64_t>(static_cast<double>(rte_rdtsc() - start) /
                                               static_cast<double>(hz) * rate_pps);
        n = due > offered + paced_refused
                ? static_cast<unsigned>(std::min<uint64_t>(due - offered - paced_refused, n))
                : 0;
      }
      if (n > 0 && rte_pktmbuf_alloc_bulk(pool, burst, n) == 0) {
        for (unsigned i = 0; i < n; ++i) {
          auto* p = rte_pktmbuf_mtod(burst[i], uint8_t*);
          // Only the headers: nothing reads a payload, and copying 4 KB per frame would make the
          // generator, not the loop, the limit.
          std::memcpy(p, frame.data(), kHeaderBytes);
          p[34] = static_cast<uint8_t>(0xc0 | (port >> 8 & 0x3f));  // UDP source port: ECMP
          p[35] = static_cast<uint8_t>(port++);
          burst[i]->data_len = static_cast<uint16_t>(frame.size());
          burst[i]->pkt_len = static_cast<uint32_t>(frame.size());
        }
        const unsigned q =
            rte_ring_enqueue_burst(in.rx, reinterpret_cast<void* const*>(burst), n, nullptr);
        if (q < n) rte_pktmbuf_free_bulk(burst + q, n - q);
        offered += q;
        refused += n - q;
        if (rate_pps > 0) paced_refused += n - q;
      }
      const unsigned d = rte_ring_dequeue_burst(out.tx, reinterpret_cast<void**>(burst),
                                                fe::dp::kBurstSize, nullptr);
      if (d > 0) rte_pktmbuf_free_bulk(burst, d);
      delivered += d;
      const unsigned a = rte_ring_dequeue_burst(in.tx, reinterpret_cast<void**>(burst),
                                                fe::dp::kBurstSize, nullptr);
      if (a > 0) rte_pktmbuf_free_bulk(burst, a);
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  const Options o = Parse(argc, argv);
  dp::EalOptions eal;
  eal.memory_mb = 1024;
  if (Status s = dp::InitEal(eal); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 1;
  }
  topo::Graph graph =
      topo::BuildFatTree(topo::FatTreeParams{4, Rate::FromGbps(100), Time::FromUs(1)}).value();
  const topo::RouteTable routes = topo::RouteTable::Build(graph);
  Scheduler sched;
  dp::FabricParams fp;
  fp.mbuf_pool_size = dp::kMinMbufPoolSize;
  auto fabric = dp::Fabric::Create(graph, routes, fp, &sched);
  if (!fabric.ok()) {
    std::fprintf(stderr, "%s\n", fabric.status().message().c_str());
    return 1;
  }
  rte_mempool* pool = rte_pktmbuf_pool_create(
      "bench", 32767, 256, dp::kPacketPrivBytes,
      static_cast<uint16_t>(o.frame_bytes + RTE_PKTMBUF_HEADROOM), SOCKET_ID_ANY);
  Generator gen;
  gen.pool = pool;
  gen.in = testing::MakeRingPort("bench_in");
  gen.out = testing::MakeRingPort("bench_out");
  gen.frame = Template(o.frame_bytes);
  gen.rate_pps = o.rate_mpps * 1e6;
  const uint32_t hosts[2] = {0, 15};
  const std::string names[2] = {gen.in.name, gen.out.name};
  std::vector<std::unique_ptr<dp::EthPort>> ports;
  std::vector<std::unique_ptr<dp::ExternalHost>> ext;
  std::vector<dp::RealtimeAttachment> att;
  for (int i = 0; i < 2; ++i) {
    auto p = dp::EthPort::Open(dp::EthPortParams{.device_args = names[i]}, pool);
    if (!p.ok()) {
      std::fprintf(stderr, "%s\n", p.status().message().c_str());
      return 1;
    }
    dp::ExternalHostParams hp;
    hp.host = hosts[i];
    hp.num_hosts = static_cast<uint32_t>(graph.num_hosts());
    hp.dscp_map = cong::Compile(cong::DscpMapParams{}).value();
    auto h = std::make_unique<dp::ExternalHost>(hp);
    h->ConnectUplink(&(*fabric)->AttachExternal(hosts[i], h.get()));
    att.push_back({p->get(), h.get()});
    ports.push_back(std::move(p).value());
    ext.push_back(std::move(h));
  }

  std::thread generator([&gen] { gen.Run(); });
  const dp::TscClock clock;
  dp::RealtimeLoopParams lp;
  lp.duration = Time::FromSeconds(o.seconds);
  dp::RealtimeLoop loop(&sched, &clock, att, lp);
  StatusOr<dp::RealtimeStats> stats = loop.Run();
  const uint64_t delivered = gen.delivered;
  gen.stop = true;
  generator.join();
  if (!stats.ok()) {
    std::fprintf(stderr, "%s\n", stats.status().message().c_str());
    return 1;
  }
  const double secs = stats->elapsed.seconds();
  const dp::LatenessHistogram& h = stats->lateness;
  std::printf(
      "frame %u B, offered %.3f Mpps (%s), forwarded %.3f Mpps (%.2f Gb/s of frames) over %.1f s; "
      "events %.2f M/s; lateness p50 %llu ns p99 %llu ns max %llu ns, %.2f%% > 1 us; "
      "uplink drops %llu; rx ring full for %.1f%% of offers\n",
      o.frame_bytes, static_cast<double>(gen.offered) / secs * 1e-6,
      o.rate_mpps > 0 ? "paced" : "as fast as taken", static_cast<double>(delivered) / secs * 1e-6,
      static_cast<double>(delivered) * o.frame_bytes * 8 / secs * 1e-9, secs,
      static_cast<double>(stats->events_run) / secs * 1e-6,
      static_cast<unsigned long long>(h.QuantileNs(0.5)),
      static_cast<unsigned long long>(h.QuantileNs(0.99)),
      static_cast<unsigned long long>(h.max_ns()),
      h.count() ? 100.0 * static_cast<double>(h.late_over_1us()) / static_cast<double>(h.count())
                : 0.0,
      static_cast<unsigned long long>(ext[0]->counters().uplink_overflow),
      100.0 * static_cast<double>(gen.refused) / static_cast<double>(gen.refused + gen.offered));
  for (auto& e : ext) e->DrainAll();
  return 0;
}
