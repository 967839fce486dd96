#include "dataplane/packet_free_list.h"

#include <rte_lcore.h>
#include <rte_mbuf.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#include "dataplane/chunk_stock.h"

namespace fe::dp {
namespace {

constexpr char kOpsName[] = "fe_free_list";

// A free mbuf's data room, the line before it (see Populate), holds a block: up to
// kBlockObjects other free mbufs and the link to the next block. The holder itself is
// handed out once its block is empty, which makes a list of blocks a LIFO whose reads and writes
// touch one line per kBlockObjects + 1 mbufs.
constexpr uint32_t kBlockObjects = 6;
struct Block {
  Block* next;
  uint32_t n;
  void* objects[kBlockObjects];
};
static_assert(sizeof(Block) <= 64);

// An lcore's list holds up to kLaneMax mbufs; past that, the most recent kLaneMoved or so go to
// the shared list, and an lcore whose list is empty takes as many from there (DPDK's per-lcore
// cache sizes: 512, flushed at 1.5 times that).
constexpr uint32_t kLaneMax = 768;
constexpr uint32_t kLaneMoved = 512;

struct List {
  Block* top = nullptr;
  uint32_t count = 0;
};

// One lcore's free mbufs: only that lcore changes them, without a lock (a count read elsewhere is
// only a count at rest, as the pool's available count is). Besides its list, a share of the
// objects never handed out, taken under the lock a batch at a time, so that a run's first use of
// each object takes no lock: fresh_left of them from fresh_next on, a stride apart.
struct alignas(64) Lane {
  List list;
  char* fresh_next = nullptr;
  uint32_t fresh_left = 0;
  std::atomic<uint32_t> count{0};  // list.count + fresh_left, for readers on other lcores
};

// Objects no one has handed out since the last reset, taken in address order.
struct Untouched {
  char* next;
  char* end;
};

struct FreeList {
  uint32_t header_bytes = 0;  // the line before each object: its data room
  uint32_t stride = 0;        // between consecutive objects of a memory chunk
  std::unique_ptr<Lane[]> lanes{new Lane[RTE_MAX_LCORE]};
  // Shared, under `lock`: mbufs freed by threads that are no lcore, and lcores' overflow. Taken
  // once per hundreds of mbufs; a std::mutex, which a thread checker sees (DPDK's spinlock is
  // inline assembly, invisible to it).
  std::mutex lock;
  List shared;
  uint32_t untouched = 0;  // objects in `fresh`
  std::vector<Untouched> fresh;
  std::vector<Untouched> chunks;  // every chunk's objects, as populated
};

FreeList* Of(const rte_mempool* mp) { return static_cast<FreeList*>(mp->pool_data); }

void Push(const FreeList& f, List& l, void* obj) {
  if (l.top != nullptr && l.top->n < kBlockObjects) {
    l.top->objects[l.top->n++] = obj;
  } else {
    auto* b = reinterpret_cast<Block*>(static_cast<char*>(obj) - f.header_bytes);
    b->next = l.top;
    b->n = 0;
    l.top = b;
  }
  ++l.count;
}

// l must not be empty.
void* Pop(const FreeList& f, List& l) {
  --l.count;
  Block* b = l.top;
  if (b->n > 0) return b->objects[--b->n];
  l.top = b->next;
  return reinterpret_cast<char*>(b) + f.header_bytes;
}

// Moves whole blocks from the top of `from` to the top of `to`, at least `at_least` objects or
// all there are.
void MoveBlocks(List& from, List& to, uint32_t at_least) {
  if (from.top == nullptr) return;
  Block* last = from.top;
  uint32_t moved = last->n + 1;
  while (moved < at_least && last->next != nullptr) {
    last = last->next;
    moved += last->n + 1;
  }
  Block* rest = last->next;
  last->next = to.top;
  to.top = from.top;
  to.count += moved;
  from.top = rest;
  from.count -= moved;
}

int Alloc(rte_mempool* mp) {
  auto* f = new (std::nothrow) FreeList;
  if (f == nullptr) return -ENOMEM;
  if (mp->header_size < sizeof(Block)) {
    delete f;
    return -EINVAL;
  }
  f->header_bytes = mp->header_size;
  f->stride = mp->header_size + mp->elt_size + mp->trailer_size;
  mp->pool_data = f;
  return 0;
}

// DPDK's own populate writes each object's header (the pool, its IOVA and a link chaining every
// object) and then frees the object into the store, which touches every page of the chunk. Here
// the chunk is only recorded: its objects are handed out in address order when first needed, and
// the header line before each is left to the mbuf as its data room (a software-mode frame keeps
// only its headers there), which makes an element 192 bytes instead of 256. Nothing reads a
// header of these pools: DPDK walks the object chain only to audit, dump or free objects one by
// one, and the chain stays empty; rte_pktmbuf_init reads the IOVA, zero in an untouched page, and
// AllocPacket then points the mbuf at its room.
int Populate(rte_mempool* mp, unsigned max_objs, void* vaddr, rte_iova_t /*iova*/, size_t len,
             rte_mempool_populate_obj_cb_t* /*obj_cb*/, void* /*obj_cb_arg*/) {
  FreeList& f = *Of(mp);
  const auto n = static_cast<uint32_t>(std::min<size_t>(max_objs, len / f.stride));
  if (n == 0) return 0;
  char* first = static_cast<char*>(vaddr) + mp->header_size;
  const Untouched chunk{first, first + size_t{n} * f.stride};
  const std::lock_guard hold(f.lock);
  f.chunks.push_back(chunk);
  f.fresh.insert(f.fresh.begin(), chunk);  // after every object already there
  f.untouched += n;
  mp->populated_size += n;
  return static_cast<int>(n);
}

void Free(rte_mempool* mp) {
  delete Of(mp);
  mp->pool_data = nullptr;
  delete static_cast<ChunkStock*>(mp->pool_config);
  mp->pool_config = nullptr;
}

void PublishCount(Lane& lane) {
  lane.count.store(lane.list.count + lane.fresh_left, std::memory_order_relaxed);
}

// Takes n of the lane's objects, its list's first; it must hold that many.
void TakeFromLane(const FreeList& f, Lane& lane, void** objs, unsigned n) {
  for (unsigned i = 0; i < n; ++i) {
    if (lane.list.count > 0) {
      objs[i] = Pop(f, lane.list);
    } else {
      objs[i] = lane.fresh_next;
      lane.fresh_next += f.stride;
      --lane.fresh_left;
    }
  }
  PublishCount(lane);
}

// With the lock held: the chunk whose never handed out objects come next (f.untouched > 0).
Untouched& NextFresh(FreeList& f) {
  while (f.fresh.back().next == f.fresh.back().end) f.fresh.pop_back();
  return f.fresh.back();
}

int Enqueue(rte_mempool* mp, void* const* objs, unsigned n) {
  FreeList& f = *Of(mp);
  const unsigned id = rte_lcore_id();
  if (id < RTE_MAX_LCORE) [[likely]] {
    Lane& lane = f.lanes[id];
    for (unsigned i = 0; i < n; ++i) Push(f, lane.list, objs[i]);
    if (lane.list.count > kLaneMax) [[unlikely]] {
      const std::lock_guard hold(f.lock);
      MoveBlocks(lane.list, f.shared, kLaneMoved);
    }
    PublishCount(lane);
    return 0;
  }
  const std::lock_guard hold(f.lock);
  for (unsigned i = 0; i < n; ++i) Push(f, f.shared, objs[i]);
  return 0;
}

// With the lock held: an object from the shared list or, that empty, a never handed out one.
void* PopShared(FreeList& f) {
  if (f.shared.count > 0) return Pop(f, f.shared);
  Untouched& u = NextFresh(f);
  void* obj = u.next;
  u.next += f.stride;
  --f.untouched;
  return obj;
}

int Dequeue(rte_mempool* mp, void** objs, unsigned n) {
  FreeList& f = *Of(mp);
  const unsigned id = rte_lcore_id();
  Lane* lane = id < RTE_MAX_LCORE ? &f.lanes[id] : nullptr;
  if (lane != nullptr && lane->list.count + lane->fresh_left >= n) [[likely]] {
    TakeFromLane(f, *lane, objs, n);
    return 0;
  }
  const std::lock_guard hold(f.lock);
  const uint32_t own_count = lane != nullptr ? lane->list.count + lane->fresh_left : 0;
  if (own_count + f.shared.count + f.untouched < n) return -ENOBUFS;
  if (lane != nullptr) TakeFromLane(f, *lane, objs, own_count);
  for (unsigned i = own_count; i < n; ++i) objs[i] = PopShared(f);
  if (lane != nullptr) {
    MoveBlocks(f.shared, lane->list, kLaneMoved);
    if (lane->list.count == 0 && f.untouched > 0) {
      Untouched& u = NextFresh(f);
      lane->fresh_next = u.next;
      lane->fresh_left = static_cast<uint32_t>(
          std::min<size_t>(kLaneMoved, static_cast<size_t>(u.end - u.next) / f.stride));
      u.next += size_t{lane->fresh_left} * f.stride;
      f.untouched -= lane->fresh_left;
    }
    PublishCount(*lane);
  }
  return 0;
}

unsigned GetCount(const rte_mempool* mp) {
  FreeList& f = *Of(mp);
  uint64_t n = 0;
  for (unsigned i = 0; i < RTE_MAX_LCORE; ++i) {
    n += f.lanes[i].count.load(std::memory_order_relaxed);
  }
  const std::lock_guard hold(f.lock);
  n += f.shared.count + f.untouched;
  return static_cast<unsigned>(n);
}

const rte_mempool_ops kOps = [] {
  rte_mempool_ops ops{};
  snprintf(ops.name, sizeof(ops.name), "%s", kOpsName);
  ops.alloc = Alloc;
  ops.free = Free;
  ops.enqueue = Enqueue;
  ops.dequeue = Dequeue;
  ops.get_count = GetCount;
  ops.populate = Populate;
  return ops;
}();

}  // namespace

const char* PacketFreeListOps() {
  static const int registered = rte_mempool_register_ops(&kOps);
  (void)registered;
  return kOpsName;
}

bool ResetPacketFreeList(rte_mempool* mp) {
  if (mp->pool_data == nullptr ||
      std::strcmp(rte_mempool_get_ops(mp->ops_index)->name, kOpsName) != 0) {
    return false;
  }
  if (mp->cache_size != 0) {
    for (unsigned lcore = 0; lcore < RTE_MAX_LCORE; ++lcore) mp->local_cache[lcore].len = 0;
  }
  FreeList& f = *Of(mp);
  for (unsigned lcore = 0; lcore < RTE_MAX_LCORE; ++lcore) {
    f.lanes[lcore].list = List{};
    f.lanes[lcore].fresh_left = 0;
    f.lanes[lcore].count.store(0, std::memory_order_relaxed);
  }
  f.shared = List{};
  // Handed out in address order: the first chunk's first object first.
  f.fresh.assign(f.chunks.rbegin(), f.chunks.rend());
  f.untouched = mp->populated_size;
  return true;
}

}  // namespace fe::dp
