// The mbuf pool a fabric draws its packets from.
#pragma once

#include <rte_mempool.h>

#include <cstdint>
#include <string>

#include "core/status.h"

namespace fe::dp {

enum class PoolMemory {
  // DPDK's heap: IOVA-mapped, so frames can be handed to real NICs (real-time mode).
  kDpdkHeap,
  // Anonymous process memory backed by transparent huge pages where the kernel allows. Without
  // hugepages DPDK's heap is made of 4 KB pages, and a large fabric's packets then miss the TLB
  // on nearly every hop; software mode never gives a frame to a device, so it needs no IOVA.
  kHostPages,
};

// A LIFO pool of n mbufs with a PacketMeta private area: the most recently freed mbufs, still in
// cache, are handed out first (DPDK's default ring pool is FIFO and cycles through all of them).
StatusOr<rte_mempool*> CreatePacketPool(const std::string& name, uint32_t n,
                                        uint16_t data_room_bytes, PoolMemory memory);

}  // namespace fe::dp
