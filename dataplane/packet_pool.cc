#include "dataplane/packet_pool.h"

#include <rte_errno.h>
#include <rte_mbuf.h>
#include <sys/mman.h>

#include "dataplane/packet.h"

namespace fe::dp {

namespace {

constexpr unsigned kCacheSize = 512;  // DPDK's maximum per-lcore cache
constexpr size_t kHugePageBytes = 2u << 20;
constexpr char kLifoOps[] = "stack";

void Unmap(rte_mempool_memhdr* hdr, void* /*opaque*/) { munmap(hdr->addr, hdr->len); }

// Anonymous memory starting on a 2 MB boundary, advised to use transparent huge pages (a no-op
// where the kernel has them off); nullptr if the kernel refuses.
char* MapAligned(size_t bytes) {
  void* raw = mmap(nullptr, bytes + kHugePageBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const auto base = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (base + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  if (aligned > base) munmap(raw, aligned - base);
  const uintptr_t tail = base + bytes + kHugePageBytes - (aligned + bytes);
  if (tail > 0) munmap(reinterpret_cast<void*>(aligned + bytes), tail);
  madvise(reinterpret_cast<void*>(aligned), bytes, MADV_HUGEPAGE);
  return reinterpret_cast<char*>(aligned);
}

Status Failed(const std::string& what, uint32_t n) {
  return Status::Error("cannot create a pool of " + std::to_string(n) + " mbufs (" + what +
                       "): " + rte_strerror(rte_errno));
}

}  // namespace

StatusOr<rte_mempool*> CreatePacketPool(const std::string& name, uint32_t n,
                                        uint16_t data_room_bytes, PoolMemory memory) {
  if (memory == PoolMemory::kDpdkHeap) {
    rte_mempool* mp = rte_pktmbuf_pool_create_by_ops(name.c_str(), n, kCacheSize, kPacketPrivBytes,
                                                     data_room_bytes, SOCKET_ID_ANY, kLifoOps);
    if (mp == nullptr) return Failed("DPDK heap", n);
    return mp;
  }
  const unsigned elt_bytes = sizeof(rte_mbuf) + kPacketPrivBytes + data_room_bytes;
  rte_mempool* mp = rte_mempool_create_empty(name.c_str(), n, elt_bytes, kCacheSize,
                                             sizeof(rte_pktmbuf_pool_private), SOCKET_ID_ANY, 0);
  if (mp == nullptr) return Failed("empty pool", n);
  rte_pktmbuf_pool_private priv{};
  priv.mbuf_data_room_size = data_room_bytes;
  priv.mbuf_priv_size = kPacketPrivBytes;
  if (rte_mempool_set_ops_byname(mp, kLifoOps, nullptr) != 0) {
    rte_mempool_free(mp);
    return Failed("LIFO ops", n);
  }
  rte_pktmbuf_pool_init(mp, &priv);

  rte_mempool_objsz sz;
  rte_mempool_calc_obj_size(elt_bytes, 0, &sz);
  // Map 2 MB-aligned regions (where huge pages want them) until the pool holds n objects: how
  // many fit a region depends on DPDK's per-chunk alignment, so it is not computed up front.
  while (mp->populated_size < mp->size) {
    const size_t left = mp->size - mp->populated_size;
    const size_t bytes = (left * sz.total_size / kHugePageBytes + 2) * kHugePageBytes;
    char* mem = MapAligned(bytes);
    if (mem == nullptr) {
      rte_mempool_free(mp);
      return Status::Error("cannot map " + std::to_string(bytes) + " bytes for the packet pool");
    }
    if (rte_mempool_populate_virt(mp, mem, bytes, kHugePageBytes, Unmap, nullptr) <= 0) {
      munmap(mem, bytes);
      rte_mempool_free(mp);  // unmaps the regions already added
      return Failed("populate", n);
    }
  }
  rte_mempool_obj_iter(mp, rte_pktmbuf_init, nullptr);
  return mp;
}

}  // namespace fe::dp
