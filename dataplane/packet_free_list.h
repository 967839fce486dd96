// The free mbufs of a host-page pool: a LIFO per lcore (none locked) and a shared one for other
// threads and overflow, kept in the free mbufs themselves, so that it costs no memory of its own.
// It stands for both DPDK's per-lcore caches (the pool has none: DPDK zeroes all 128 of them,
// 1 MB, when it makes a pool) and its "stack" driver, which keeps a pointer for every mbuf the
// pool ever made (at k = 16, 2.8 MiB at the end of a run, when all are free).
#pragma once

#include <rte_mempool.h>

namespace fe::dp {

// The mempool ops name of the store, registered with DPDK by the first call; set it on an empty
// pool whose elements are mbufs (rte_mempool_set_ops_byname), before populating it. The pool's
// ops config, if any, is the ChunkStock (dataplane/chunk_stock.h) its memory comes from, which
// the store deletes with the pool. The store's
// populate writes no object header: the line before each object (the pool's header_size, at least
// 64 bytes) is the mbuf's to use as its data room, and the store keeps its lists there while the
// mbuf is free.
const char* PacketFreeListOps();

// Declares every object of mp free and never handed out, without touching them, so that their
// memory may then be given back to the kernel (to read as zero): the store hands them out from
// the pool's memory chunks in address order, and the per-lcore caches are emptied. Only while no
// mbuf is in use and no other thread uses the pool. False, and nothing done, for a pool of other
// ops.
bool ResetPacketFreeList(rte_mempool* mp);

}  // namespace fe::dp
