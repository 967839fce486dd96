// A small mbuf pool for dataplane tests, shaped like the fabric's (private area for PacketMeta).
#pragma once

#include <rte_mbuf.h>

#include <cstdio>

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
  unsigned in_use() const { return rte_mempool_in_use_count(pool_); }

 private:
  rte_mempool* pool_;
};

}  // namespace fe::dp::testing
