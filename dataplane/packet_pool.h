// The mbuf pool a fabric draws its packets from.
#pragma once

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <cstdint>
#include <string>

#include "core/status.h"

namespace fe::dp {

enum class PoolMemory {
  // DPDK's heap: IOVA-mapped, so frames can be handed to real NICs (real-time mode).
  kDpdkHeap,
  // Anonymous process memory backed by transparent huge pages where the kernel allows, with a
  // data room of kHostPagesDataRoomBytes in the line before each mbuf (headers only). Without
  // hugepages DPDK's heap is made of 4 KB pages, and a large fabric's packets then miss the TLB
  // on nearly every hop; software mode never gives a frame to a device, so it needs no IOVA.
  kHostPages,
};

// Emulated frames store only their headers: at most 60 bytes (a PFC frame; an ACK with its AETH
// is 58, a data packet 54, a CNP 54 with its reserved bytes virtual). One cache line, the one
// DPDK would give the mempool's object header, which these pools do not write
// (dataplane/packet_free_list.h): an element is then 192 bytes (256 with HPCC's private area),
// where a room after the mbuf made it 256 and DPDK's own layout 448. At k = 16's peak of
// 371,711 packets in flight, 64 bytes each are 22.7 MiB.
inline constexpr uint16_t kHostPagesDataRoomBytes = 64;

// The memory one mbuf of a host-page pool takes, with priv_bytes of private area.
inline constexpr uint64_t HostPagePacketBytes(uint16_t priv_bytes) {
  return kHostPagesDataRoomBytes + sizeof(rte_mbuf) + priv_bytes;
}

// A LIFO pool of up to n mbufs: the most recently freed mbufs, still in cache, are handed out
// first (DPDK's default ring pool is FIFO and cycles through all of them). A host-page pool starts
// with one chunk and grows on demand up to n (see AllocPacket). data_room_bytes applies to
// kDpdkHeap; kHostPages uses kHostPagesDataRoomBytes, and its pool records no room after the
// mbuf (rte_pktmbuf_data_room_size is 0). priv_bytes is the private area: 0, or
// kPacketPrivBytes for a fabric whose NICs run HPCC (its INT stacks live there).
StatusOr<rte_mempool*> CreatePacketPool(const std::string& name, uint32_t n,
                                        uint16_t data_room_bytes, PoolMemory memory,
                                        uint16_t priv_bytes);

// Where an mbuf of mp holds its first header byte, from the mbuf's address, as AllocPacket sets
// it: a hop can then prefetch the headers without first reading the mbuf.
inline int32_t HeaderOffset(rte_mempool* mp) {
  const uint32_t room = rte_pktmbuf_data_room_size(mp);
  if (room == 0) return -int32_t{kHostPagesDataRoomBytes};  // a host-page pool
  return static_cast<int32_t>(sizeof(rte_mbuf) + rte_pktmbuf_priv_size(mp) +
                              (room <= RTE_PKTMBUF_HEADROOM ? 0 : RTE_PKTMBUF_HEADROOM));
}

// Adds a chunk of mbufs to a host-page pool below its cap; false when it cannot grow.
bool GrowPacketPool(rte_mempool* mp);
rte_mbuf* AllocPacketAfterGrowing(rte_mempool* mp);
// Sets up an mbuf of a host-page pool on its first use: DPDK's rte_pktmbuf_init, then its data
// room, the line before it.
void InitHostPagePacket(rte_mempool* mp, rte_mbuf* m);

// The allocation every element uses for the fabric's pool: grows the pool when it runs dry and
// initialises an mbuf on its first use (a grown chunk's memory is untouched, hence zero, so a
// null pool pointer marks an mbuf never handed out). nullptr when the pool is at its cap.
inline rte_mbuf* AllocPacket(rte_mempool* mp) {
  rte_mbuf* m = rte_mbuf_raw_alloc(mp);
  if (__builtin_expect(m == nullptr, 0)) {
    m = AllocPacketAfterGrowing(mp);
    if (m == nullptr) return nullptr;
  }
  if (__builtin_expect(m->pool == nullptr, 0)) InitHostPagePacket(mp, m);
  // rte_pktmbuf_reset, less its writes to the mbuf's second line: `next` is already null (DPDK
  // keeps it so for every mbuf in a pool) and `tx_offload` already zero (rte_pktmbuf_init zeroes
  // it and nothing here sets it). Every other field a frame uses lives in the first line, so a
  // packet's whole life touches that line and its headers' only.
  m->pkt_len = 0;
  m->data_len = 0;
  m->vlan_tci = 0;
  m->vlan_tci_outer = 0;
  m->nb_segs = 1;
  m->port = RTE_MBUF_PORT_INVALID;
  m->ol_flags &= RTE_MBUF_F_EXTERNAL;
  m->packet_type = 0;
  // A host-page pool's one-line data room holds headers from its first byte: no headroom.
  m->data_off = m->buf_len <= RTE_PKTMBUF_HEADROOM ? 0 : RTE_PKTMBUF_HEADROOM;
  return m;
}

// Returns m to its pool. A frame of the fabric is one direct segment held by no one else: it goes
// back without rte_pktmbuf_free's read of the mbuf's second line (`next`, to walk a chain), a
// cache miss per packet on a large fabric. Anything else (a chain from a real NIC) takes DPDK's
// path.
inline void FreePacket(rte_mbuf* m) {
  if (__builtin_expect(m->nb_segs == 1 && RTE_MBUF_DIRECT(m) && rte_mbuf_refcnt_read(m) == 1, 1)) {
    rte_mbuf_raw_free(m);
  } else {
    rte_pktmbuf_free(m);
  }
}

// Gives a host-page pool's memory back to the kernel when no mbuf is in use, as at the end of a
// run before its reports are built (at k = 16, 90 MB that the reports' own memory would otherwise
// add to). The pool stays usable: its objects read as never handed out, as after a growth.
// False, and nothing done, for a DPDK-heap pool or one with mbufs in use.
bool ReleaseIdlePacketMemory(rte_mempool* mp);

// Mbufs handed out and not yet freed (a grown pool's cap does not count as in use).
uint32_t PacketsInUse(const rte_mempool* mp);

}  // namespace fe::dp
