// Fuzz target: frames as a real host sends them in real-time mode, through every function a
// received frame meets. They enter at host 0's attachment point (ExternalHost::OnRx: ARP, PFC,
// IPv4 checks and drops), cross the edge switch and on (Switch::Receive: header parsing, routing,
// TTL, ECN; pause frames at the egress ports) and end at a real host's outbox, at an emulated NIC
// (a foreign RoCE packet meeting a QP that is sending) or dropped. Every frame must end in one of
// those: a crash, a hang, undefined behaviour or an mbuf never freed is a bug.
//
// Input: frames one after another, each a 2-byte big-endian length and that many bytes (the last
// one may be cut short). A frame enters 1 us after the one before it, so pause frames and data
// interleave with the emulated message on the fabric.
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "core/scheduler.h"
#include "dataplane/eal.h"
#include "dataplane/fabric.h"
#include "dataplane/packet.h"
#include "dataplane/realtime/external_host.h"
#include "topology/fat_tree.h"
#include "topology/routes.h"

namespace {

using namespace fe;
using namespace fe::dp;

// k = 4: 16 hosts, 3 switch tiers. Host 0 is the real host sending; host 1 a second real host a
// frame may be routed to; hosts 2 -> 3 carry an emulated message whose QPs foreign RoCE frames
// can hit.
constexpr uint32_t kSender = 0;
constexpr uint32_t kRealReceiver = 1;
constexpr uint16_t kRxDataRoomBytes = 2048 + RTE_PKTMBUF_HEADROOM;
constexpr Time kFrameGap = Time::FromUs(1);

struct World {
  topo::Graph graph;
  topo::RouteTable routes;
  rte_mempool* rx_pool = nullptr;  // stands for the real NIC's receive pool
};

World* world = nullptr;

void Fail(const char* what) {
  std::fprintf(stderr, "frame_fuzz: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  EalOptions eal;
  eal.memory_mb = 256;
  if (const Status s = InitEal(eal); !s.ok()) Fail(s.message().c_str());
  world = new World;
  auto g = topo::BuildFatTree(topo::FatTreeParams{4, Rate::FromGbps(100), Time::FromNs(1000)});
  if (!g.ok()) Fail(g.status().message().c_str());
  world->graph = std::move(g).value();
  world->routes = topo::RouteTable::Build(world->graph);
  world->rx_pool =
      rte_pktmbuf_pool_create("fuzz_rx", 255, 0, kPacketPrivBytes, kRxDataRoomBytes, SOCKET_ID_ANY);
  if (world->rx_pool == nullptr) Fail("cannot create the receive pool");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Scheduler sched;
  FabricParams params;
  params.mbuf_pool_size = kMinMbufPoolSize;
  params.switch_params.decrement_ttl = true;
  auto created = Fabric::Create(world->graph, world->routes, params, &sched);
  if (!created.ok()) Fail(created.status().message().c_str());
  std::unique_ptr<Fabric> fabric = std::move(created).value();
  const MessageSpec message{
      .src_host = 2, .dst_host = 3, .size_bytes = 16384, .start = Time::Zero()};
  if (!fabric->AddMessages({&message, 1}).ok()) Fail("cannot add the emulated message");

  ExternalHostParams hp;
  hp.num_hosts = static_cast<uint32_t>(world->graph.num_hosts());
  hp.dscp_map = cong::Compile(cong::DscpMapParams{}).value();
  hp.host = kSender;
  ExternalHost sender(hp);
  sender.ConnectUplink(&fabric->AttachExternal(kSender, &sender));
  hp.host = kRealReceiver;
  ExternalHost receiver(hp);
  receiver.ConnectUplink(&fabric->AttachExternal(kRealReceiver, &receiver));

  size_t at = 0;
  while (at + 2 <= size) {
    size_t len = static_cast<size_t>(data[at] << 8 | data[at + 1]);
    at += 2;
    if (len > size - at) len = size - at;
    if (len > kRxDataRoomBytes - RTE_PKTMBUF_HEADROOM)
      len = kRxDataRoomBytes - RTE_PKTMBUF_HEADROOM;
    rte_mbuf* m = rte_pktmbuf_alloc(world->rx_pool);
    if (m == nullptr) Fail("receive pool empty: frames of earlier inputs were never freed");
    std::memcpy(rte_pktmbuf_append(m, static_cast<uint16_t>(len)), data + at, len);
    at += len;
    sender.OnRx(&m, 1);
    sched.RunUntil(sched.Now() + kFrameGap);
  }
  sched.RunUntil(Time::Infinite());
  // With nothing left to run, every frame has been dropped, consumed or delivered to a real host.
  sender.DrainAll();
  receiver.DrainAll();
  if (rte_mempool_in_use_count(world->rx_pool) != 0) Fail("a received frame was never freed");
  if (rte_mempool_in_use_count(fabric->pool()) != 0) Fail("a fabric mbuf was never freed");
  return 0;
}
