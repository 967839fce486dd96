// A small mbuf pool for dataplane tests, shaped like the fabric's (private area for PacketMeta).
#pragma once

#include <rte_mbuf.h>

#include <cstdio>
#include <cstring>

#include "dataplane/packet.h"

namespace fe::dp::testing {

class TestPool {
 public:
  explicit TestPool(unsigned n = 1023, uint16_t data_room = 2048) {
    char name[RTE_MEMPOOL_NAMESIZE];
    std::snprintf(name, sizeof(name), "t%p", static_cast<void*>(this));
    pool_ = rte_pktmbuf_pool_create(name, n, 0, kPacketPrivBytes, data_room, SOCKET_ID_ANY);
  }
  ~TestPool() { rte_mempool_free(pool_); }
  rte_mempool* get() const { return pool_; }
  rte_mbuf* Alloc() {
    rte_mbuf* m = rte_pktmbuf_alloc(pool_);
    if (m != nullptr) ResetMeta(m);
    return m;
  }
  // A frame of frame_bytes including FCS, as emulated traffic carries it: 60 stored bytes of
  // zeroes (no MAC-control EtherType), the rest virtual.
  rte_mbuf* Frame(uint32_t frame_bytes) {
    rte_mbuf* m = Alloc();
    std::memset(rte_pktmbuf_append(m, 60), 0, 60);
    SetVirtualBytes(m, frame_bytes - 60 - kFcsBytes);
    return m;
  }
  unsigned in_use() const { return rte_mempool_in_use_count(pool_); }

 private:
  rte_mempool* pool_;
};

}  // namespace fe::dp::testing
