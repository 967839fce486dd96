// AllocPacket and FreePacket take shortcuts past DPDK's rte_pktmbuf_reset and rte_pktmbuf_free
// (they leave the mbuf's second line alone): checked here against DPDK's own functions, on both
// kinds of pool, and against the pool's count of mbufs in use (nothing lost, nothing twice).
#include "dataplane/packet_pool.h"

#include <gtest/gtest.h>
#include <rte_mbuf.h>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "dataplane/packet.h"

namespace fe::dp {
namespace {

constexpr uint32_t kPoolSize = 4095;

struct PoolCase {
  PoolMemory memory;
  const char* name;
};

class PacketPoolTest : public ::testing::TestWithParam<PoolCase> {
 protected:
  void SetUp() override {
    StatusOr<rte_mempool*> p = CreatePacketPool(std::string("pp_") + GetParam().name, kPoolSize,
                                                256, GetParam().memory, 0);
    ASSERT_TRUE(p.ok()) << p.status().message();
    pool_ = *p;
  }
  void TearDown() override { rte_mempool_free(pool_); }

  // Every field rte_pktmbuf_reset sets, given a value no reset leaves.
  static void Dirty(rte_mbuf* m) {
    m->pkt_len = 77;
    m->data_len = 77;
    m->vlan_tci = 5;
    m->vlan_tci_outer = 6;
    m->port = 3;
    m->ol_flags = RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_IP_CKSUM_BAD;
    m->packet_type = RTE_PTYPE_L2_ETHER;
    m->data_off = 7;
  }

  rte_mempool* pool_ = nullptr;
};

TEST_P(PacketPoolTest, ARecycledMbufComesBackAsDpdksResetLeavesIt) {
  rte_mbuf* m = AllocPacket(pool_);
  ASSERT_NE(m, nullptr);
  Dirty(m);
  FreePacket(m);
  // The pool is LIFO: the mbuf just freed is the one handed out next.
  rte_mbuf* again = AllocPacket(pool_);
  ASSERT_EQ(again, m);

  rte_mbuf reference = *again;
  rte_pktmbuf_reset(&reference);
  if (reference.buf_len <= RTE_PKTMBUF_HEADROOM) reference.data_off = 0;  // headers-only room
  EXPECT_EQ(again->next, reference.next);
  EXPECT_EQ(again->tx_offload, 0u);
  EXPECT_EQ(again->pkt_len, reference.pkt_len);
  EXPECT_EQ(again->data_len, reference.data_len);
  EXPECT_EQ(again->vlan_tci, reference.vlan_tci);
  EXPECT_EQ(again->vlan_tci_outer, reference.vlan_tci_outer);
  EXPECT_EQ(again->nb_segs, reference.nb_segs);
  EXPECT_EQ(again->port, reference.port);
  EXPECT_EQ(again->ol_flags, reference.ol_flags);
  EXPECT_EQ(again->packet_type, reference.packet_type);
  EXPECT_EQ(again->data_off, reference.data_off);
  EXPECT_EQ(rte_mbuf_refcnt_read(again), 1);
  FreePacket(again);
  EXPECT_EQ(PacketsInUse(pool_), 0u);
}

TEST_P(PacketPoolTest, AChainGoesBackWholeSegmentBySegment) {
  rte_mbuf* head = AllocPacket(pool_);
  ASSERT_NE(head, nullptr);
  for (int i = 0; i < 2; ++i) {
    rte_mbuf* seg = AllocPacket(pool_);
    ASSERT_NE(seg, nullptr);
    ASSERT_EQ(rte_pktmbuf_chain(head, seg), 0);
  }
  ASSERT_EQ(head->nb_segs, 3);
  EXPECT_EQ(PacketsInUse(pool_), 3u);
  FreePacket(head);
  EXPECT_EQ(PacketsInUse(pool_), 0u);
  // Each segment went back with `next` cleared: the fast path may rely on it.
  std::vector<rte_mbuf*> all;
  for (int i = 0; i < 3; ++i) {
    all.push_back(AllocPacket(pool_));
    ASSERT_NE(all.back(), nullptr);
    EXPECT_EQ(all.back()->next, nullptr);
    EXPECT_EQ(all.back()->nb_segs, 1);
  }
  for (rte_mbuf* m : all) FreePacket(m);
  EXPECT_EQ(PacketsInUse(pool_), 0u);
}

TEST_P(PacketPoolTest, AFrameHeldTwiceGoesBackAfterItsLastHolderFreesIt) {
  rte_mbuf* m = AllocPacket(pool_);
  ASSERT_NE(m, nullptr);
  rte_mbuf_refcnt_update(m, 1);
  FreePacket(m);
  EXPECT_EQ(PacketsInUse(pool_), 1u);
  EXPECT_EQ(rte_mbuf_refcnt_read(m), 1);
  FreePacket(m);
  EXPECT_EQ(PacketsInUse(pool_), 0u);
}

// The kernel's own count of resident pages (mincore) over the pool's memory.
size_t ResidentPages(rte_mempool* mp) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  size_t resident = 0;
  rte_mempool_memhdr* hdr;
  STAILQ_FOREACH(hdr, &mp->mem_list, next) {
    std::vector<unsigned char> in_core((hdr->len + page - 1) / page);
    if (mincore(hdr->addr, hdr->len, in_core.data()) != 0) return SIZE_MAX;
    for (unsigned char c : in_core) resident += c & 1;
  }
  return resident;
}

TEST_P(PacketPoolTest, IdleHostPagesGoBackToTheKernelAndThePoolStillWorks) {
  std::vector<rte_mbuf*> held;
  for (int i = 0; i < 100; ++i) held.push_back(AllocPacket(pool_));
  EXPECT_FALSE(ReleaseIdlePacketMemory(pool_));  // mbufs in use: nothing released
  for (rte_mbuf* m : held) FreePacket(m);
  if (GetParam().memory == PoolMemory::kDpdkHeap) {
    EXPECT_FALSE(ReleaseIdlePacketMemory(pool_));  // DPDK's heap stays DPDK's
    return;
  }
  ASSERT_GT(ResidentPages(pool_), 0u);  // the mbufs handed out touched their pages
  ASSERT_TRUE(ReleaseIdlePacketMemory(pool_));
  EXPECT_EQ(ResidentPages(pool_), 0u);
  EXPECT_EQ(PacketsInUse(pool_), 0u);
  // Handed out again, an mbuf is set up as on its first use.
  rte_mbuf* m = AllocPacket(pool_);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->pool, pool_);
  EXPECT_EQ(rte_pktmbuf_mtod(m, char*), reinterpret_cast<char*>(m) + HeaderOffset(pool_));
  EXPECT_EQ(rte_mbuf_refcnt_read(m), 1);
  EXPECT_EQ(PacketsInUse(pool_), 1u);
  FreePacket(m);
  EXPECT_EQ(PacketsInUse(pool_), 0u);
}

TEST(HostPagePoolTest, AFrameFillsTheLineBeforeItsMbufAndNoOtherMbufsBytes) {
  // Enough mbufs for two growths of a huge page each (2 MiB / 192 B = 10,922 objects).
  constexpr uint32_t kMbufs = 3 * 10922;
  StatusOr<rte_mempool*> p = CreatePacketPool("pp_room", kMbufs, 0, PoolMemory::kHostPages, 0);
  ASSERT_TRUE(p.ok()) << p.status().message();
  rte_mempool* pool = *p;
  // The element: DPDK's header line, which is the frame's room, and the mbuf.
  EXPECT_EQ(pool->header_size + pool->elt_size + pool->trailer_size, 64 + sizeof(rte_mbuf));
  EXPECT_EQ(HeaderOffset(pool), -64);
  // Adding memory to the pool writes nothing in it (its pages may be backed ahead, as zero): no
  // object header, no list; an mbuf is set up as it is first handed out.
  rte_mempool_memhdr* hdr;
  STAILQ_FOREACH(hdr, &pool->mem_list, next) {
    const auto* bytes = static_cast<const char*>(hdr->addr);
    EXPECT_TRUE(std::all_of(bytes, bytes + hdr->len, [](char c) { return c == 0; }));
  }
  std::vector<rte_mbuf*> held;
  for (uint32_t i = 0; i < kMbufs; ++i) {
    rte_mbuf* m = AllocPacket(pool);
    ASSERT_NE(m, nullptr) << i;
    // The largest frame a software run writes is a PFC frame's 60 bytes; the room holds 64.
    uint8_t* room = AppendBytes(m, kHostPagesDataRoomBytes);
    ASSERT_NE(room, nullptr);
    ASSERT_EQ(AppendBytes(m, 1), nullptr);
    ASSERT_EQ(reinterpret_cast<char*>(room), reinterpret_cast<char*>(m) + HeaderOffset(pool));
    std::memset(room, static_cast<int>(i & 0xff), kHostPagesDataRoomBytes);
    held.push_back(m);
  }
  EXPECT_EQ(AllocPacket(pool), nullptr);  // at the cap
  // Every mbuf's fields and every frame's bytes are as written: no room overlaps an mbuf or
  // another room.
  for (uint32_t i = 0; i < kMbufs; ++i) {
    const rte_mbuf* m = held[i];
    ASSERT_EQ(m->pool, pool) << i;
    ASSERT_EQ(m->next, nullptr) << i;
    ASSERT_EQ(rte_mbuf_refcnt_read(m), 1) << i;
    ASSERT_EQ(m->data_len, kHostPagesDataRoomBytes) << i;
    const auto* bytes = rte_pktmbuf_mtod(m, const uint8_t*);
    for (uint32_t b = 0; b < kHostPagesDataRoomBytes; ++b) ASSERT_EQ(bytes[b], i & 0xff) << i;
  }
  EXPECT_EQ(PacketsInUse(pool), kMbufs);
  for (rte_mbuf* m : held) FreePacket(m);
  EXPECT_EQ(PacketsInUse(pool), 0u);
  // Freed, the rooms hold the free list: every mbuf comes back once.
  std::vector<rte_mbuf*> again;
  for (uint32_t i = 0; i < kMbufs; ++i) again.push_back(AllocPacket(pool));
  std::sort(held.begin(), held.end());
  std::sort(again.begin(), again.end());
  EXPECT_EQ(again, held);
  for (rte_mbuf* m : again) FreePacket(m);
  rte_mempool_free(pool);
}

INSTANTIATE_TEST_SUITE_P(Pools, PacketPoolTest,
                         ::testing::Values(PoolCase{PoolMemory::kHostPages, "host"},
                                           PoolCase{PoolMemory::kDpdkHeap, "heap"}),
                         [](const ::testing::TestParamInfo<PoolCase>& c) {
                           return std::string(c.param.name);
                         });

}  // namespace
}  // namespace fe::dp
