#include "core/chunked_fifo.h"

#include <memory>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

namespace fe {
namespace {

// 64 KB of chunks per slab: a thread short of chunks makes this many at once.
constexpr size_t kChunksPerSlab = 128;

// What every thread shares, under `mutex`: the slabs (never freed: chunks of them may sit in any
// thread's list until it ends) and the free chunks of ended threads.
struct Shared {
  std::mutex mutex;
  std::vector<void*> slabs;
  void* free = nullptr;
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
  if (shared.free != nullptr) {
    t_free_ = std::exchange(shared.free, nullptr);
  } else {
    char* slab =
        static_cast<char*>(::operator new (kChunksPerSlab* kFifoChunkBytes, std::align_val_t{64}));
    shared.slabs.push_back(slab);
    for (size_t i = kChunksPerSlab; i-- > 0;) Give(slab + i * kFifoChunkBytes);
  }
  return Take();
}

FifoChunkPool::ThreadExit::~ThreadExit() {
  void* list = std::exchange(t_free_, nullptr);
  if (list == nullptr) return;
  void* last = list;
  while (*static_cast<void**>(last) != nullptr) last = *static_cast<void**>(last);
  Shared& shared = TheShared();
  const std::lock_guard<std::mutex> lock(shared.mutex);
  *static_cast<void**>(last) = shared.free;
  shared.free = list;
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
