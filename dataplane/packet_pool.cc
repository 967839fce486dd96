#include "dataplane/packet_pool.h"

#include <rte_errno.h>
#include <rte_mbuf.h>
#include <sys/mman.h>

#include <algorithm>
#include <memory>
#include <mutex>

#include "dataplane/chunk_stock.h"
#include "dataplane/packet.h"
#include "dataplane/packet_free_list.h"

namespace fe::dp {

namespace {

constexpr unsigned kCacheSize = 512;  // DPDK's maximum per-lcore cache
// A growth adds a huge page of objects: a pool's memory is at most that much more than its peak
// use (the kernel backs the page whole on its first touch), and one more page ready for the next
// growth.
constexpr size_t kHugePageBytes = ChunkStock::kChunkBytes;
constexpr char kLifoOps[] = "stack";  // DPDK's LIFO, for DPDK-heap pools

void Unmap(rte_mempool_memhdr* hdr, void* /*opaque*/) { munmap(hdr->addr, hdr->len); }

Status Failed(const std::string& what, uint32_t n) {
  return Status::Error("cannot create a pool of " + std::to_string(n) + " mbufs (" + what +
                       "): " + rte_strerror(rte_errno));
}

}  // namespace

StatusOr<rte_mempool*> CreatePacketPool(const std::string& name, uint32_t n,
                                        uint16_t data_room_bytes, PoolMemory memory,
                                        uint16_t priv_bytes) {
  if (memory == PoolMemory::kDpdkHeap) {
    rte_mempool* mp = rte_pktmbuf_pool_create_by_ops(name.c_str(), n, kCacheSize, priv_bytes,
                                                     data_room_bytes, SOCKET_ID_ANY, kLifoOps);
    if (mp == nullptr) return Failed("DPDK heap", n);
    return mp;
  }
  // The data room is the line DPDK gives each object's header, before the mbuf.
  const unsigned elt_bytes = sizeof(rte_mbuf) + priv_bytes;
  // No spreading: DPDK would pad an element to a number of lines prime to its memory channels
  // (HPCC's 256 bytes to 320) so that consecutive objects start on different channels, which
  // helps a NIC's DMA, not a fabric the core keeps in cache.
  // No DPDK per-lcore caches: the free list keeps a LIFO per lcore itself (DPDK zeroes its 128
  // caches when it makes the pool, 1 MB of its heap resident for the one or two a run uses).
  rte_mempool* mp = rte_mempool_create_empty(name.c_str(), n, elt_bytes, /*cache_size=*/0,
                                             sizeof(rte_pktmbuf_pool_private), SOCKET_ID_ANY,
                                             RTE_MEMPOOL_F_NO_SPREAD);
  if (mp == nullptr) return Failed("empty pool", n);
  rte_pktmbuf_pool_private priv{};
  priv.mbuf_data_room_size = 0;  // none after the mbuf: HeaderOffset and InitHostPagePacket
  priv.mbuf_priv_size = priv_bytes;
  static_assert(RTE_MEMPOOL_ALIGN == kHostPagesDataRoomBytes,
                "the data room is the object header's line, which DPDK makes a cache line");
  // The chunks a growth adds: as many as the pool's cap may need, each a huge page holding a
  // whole number of objects (none straddles one).
  rte_mempool_objsz sz;
  rte_mempool_calc_obj_size(mp->elt_size, mp->flags, &sz);
  const size_t per_chunk = kHugePageBytes / sz.total_size;
  auto stock = std::make_unique<ChunkStock>((size_t{n} + per_chunk - 1) / per_chunk);
  if (rte_mempool_set_ops_byname(mp, PacketFreeListOps(), stock.get()) != 0) {
    rte_mempool_free(mp);
    return Failed("LIFO ops", n);
  }
  stock.release();  // the pool's ops own it now
  rte_pktmbuf_pool_init(mp, &priv);

  // Objects are added a chunk at a time as the run needs them (GrowPacketPool), so a large cap
  // costs memory only when packets really pile up, and none of it is touched before then.
  if (!GrowPacketPool(mp)) {
    rte_mempool_free(mp);
    return Failed("first chunk", n);
  }
  return mp;
}

bool GrowPacketPool(rte_mempool* mp) {
  // Only host-page pools start part-filled; a DPDK-heap pool is full from the start.
  if (mp->populated_size >= mp->size) return false;
  auto* const stock = static_cast<ChunkStock*>(mp->pool_config);
  char* const mem = stock != nullptr ? stock->Take() : nullptr;
  if (mem == nullptr) return false;
  // What does not fit in the page is added by the next growth.
  if (rte_mempool_populate_virt(mp, mem, kHugePageBytes, kHugePageBytes, Unmap, nullptr) <= 0) {
    munmap(mem, kHugePageBytes);
    return false;
  }
  return true;
}

void InitHostPagePacket(rte_mempool* mp, rte_mbuf* m) {
  rte_pktmbuf_init(mp, nullptr, m, 0);
  m->buf_addr = reinterpret_cast<char*>(m) - kHostPagesDataRoomBytes;
  m->buf_len = kHostPagesDataRoomBytes;
  m->buf_iova = RTE_BAD_IOVA;  // never handed to a device
}

rte_mbuf* AllocPacketAfterGrowing(rte_mempool* mp) {
  // Lanes of a multi-core run allocate at once; populating a pool is not thread-safe.
  static std::mutex growing;
  const std::lock_guard<std::mutex> lock(growing);
  if (rte_mbuf* m = rte_mbuf_raw_alloc(mp)) return m;  // another lane grew it meanwhile
  while (GrowPacketPool(mp)) {
    if (rte_mbuf* m = rte_mbuf_raw_alloc(mp)) return m;
  }
  return nullptr;
}

bool ReleaseIdlePacketMemory(rte_mempool* mp) {
  if (PacketsInUse(mp) != 0) return false;
  rte_mempool_memhdr* hdr;
  STAILQ_FOREACH(hdr, &mp->mem_list, next) {
    if (hdr->free_cb != Unmap) return false;  // DPDK's heap: not ours to give back
  }
  // Zero-fill on the next touch: an mbuf whose pool pointer is null is initialised when handed
  // out (AllocPacket), and the free list, kept in the free mbufs, starts afresh from the chunks.
  // Only DPDK's chain of all objects through their headers is cut, which only
  // rte_mempool_obj_iter walks (audits and dumps; nothing here calls it).
  if (!ResetPacketFreeList(mp)) return false;
  // First, so that no chunk is still being backed when its pages go back.
  if (auto* const stock = static_cast<ChunkStock*>(mp->pool_config)) stock->ReleaseSpare();
  STAILQ_FOREACH(hdr, &mp->mem_list, next) madvise(hdr->addr, hdr->len, MADV_DONTNEED);
  return true;
}

uint32_t PacketsInUse(const rte_mempool* mp) {
  return mp->populated_size - rte_mempool_avail_count(mp);
}

}  // namespace fe::dp
