#include "core/chunked_fifo.h"

#include <memory>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#include "core/prefault.h"

namespace fe {
namespace {

// 64 KB of chunks per slab: a thread short of chunks makes this many at once.
constexpr size_t kChunksPerSlab = 128;

// What every thread shares, under `mutex`: the slabs (never freed: chunks of them may sit in any
// thread's list until it ends) and the free lists of ended threads, each kept whole: joining two
// would walk one to its end, tens of thousands of cold chunks at k = 16 (a few ms at every exit).
struct Shared {
  std::mutex mutex;
  std::vector<void*> slabs;
  std::vector<void*> free_lists;
};
Shared& TheShared() {
  static Shared* const shared = new Shared;  // never destroyed: FIFOs may outlive statics
  return *shared;
}

}  // namespace

void* FifoChunkPool::Refill() {
  // The first refill of a thread registers the return of its chunks when it ends.
  thread_local ThreadExit at_exit;
  (void)at_exit;
  Shared& shared = TheShared();
  const std::lock_guard<std::mutex> lock(shared.mutex);
  if (!shared.free_lists.empty()) {
    t_free_ = shared.free_lists.back();
    shared.free_lists.pop_back();
  } else {
    char* slab =
        static_cast<char*>(::operator new (kChunksPerSlab* kFifoChunkBytes, std::align_val_t{64}));
    shared.slabs.push_back(slab);
    // Linking the chunks writes every page of the slab.
    PrefaultForWrite(slab, kChunksPerSlab * kFifoChunkBytes);
    for (size_t i = kChunksPerSlab; i-- > 0;) Give(slab + i * kFifoChunkBytes);
  }
  return Take();
}

FifoChunkPool::ThreadExit::~ThreadExit() {
  void* list = std::exchange(t_free_, nullptr);
  if (list == nullptr) return;
  Shared& shared = TheShared();
  const std::lock_guard<std::mutex> lock(shared.mutex);
  shared.free_lists.push_back(list);
}

size_t FifoChunkPool::FreeChunks() {
  size_t n = 0;
  for (void* c = t_free_; c != nullptr; c = *static_cast<void**>(c)) ++n;
  return n;
}

size_t FifoChunkPool::ChunksMade() {
  Shared& shared = TheShared();
  const std::lock_guard<std::mutex> lock(shared.mutex);
  return shared.slabs.size() * kChunksPerSlab;
}

}  // namespace fe
