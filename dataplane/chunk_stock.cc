#include "dataplane/chunk_stock.h"

#include <sys/mman.h>

#include <cstdint>

#include "core/prefault.h"

namespace fe::dp {

namespace {

// Anonymous memory starting on a huge-page boundary, advised to use transparent huge pages (a
// no-op where the kernel has them off); nullptr if the kernel refuses.
char* MapAligned(size_t bytes) {
  constexpr size_t kAlign = ChunkStock::kChunkBytes;
  void* raw =
      mmap(nullptr, bytes + kAlign, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const auto base = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (base + kAlign - 1) & ~(kAlign - 1);
  if (aligned > base) munmap(raw, aligned - base);
  const uintptr_t tail = base + bytes + kAlign - (aligned + bytes);
  if (tail > 0) munmap(reinterpret_cast<void*>(aligned + bytes), tail);
  madvise(reinterpret_cast<void*>(aligned), bytes, MADV_HUGEPAGE);
  return reinterpret_cast<char*>(aligned);
}

}  // namespace

ChunkStock::ChunkStock(size_t chunks) : chunks_(chunks) {
  if (chunks_ == 0) return;
  // The first chunk is mapped here, so that the pool, which takes it at once, need not wait for
  // the thread to be scheduled; the thread backs it first.
  made_.push_back(MapAligned(kChunkBytes));
  if (made_[0] == nullptr) return;
  backing_ = true;
  thread_ = std::thread([this] { Make(); });
}

ChunkStock::~ChunkStock() {
  {
    const std::lock_guard hold(lock_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
  for (size_t i = taken_; i < made_.size(); ++i) {
    if (made_[i] != nullptr) munmap(made_[i], kChunkBytes);
  }
}

void ChunkStock::Make() {
  Back(made_[0]);  // only this thread changes made_ after the constructor
  for (;;) {
    {
      std::unique_lock hold(lock_);
      // One ahead of those taken: the next growth's chunk is ready, and no more is held.
      changed_.wait(hold, [this] { return stopping_ || made_.size() <= taken_; });
      if (stopping_ || made_.size() == chunks_) return;
    }
    char* const chunk = MapAligned(kChunkBytes);
    {
      const std::lock_guard hold(lock_);
      made_.push_back(chunk);
      backing_ = chunk != nullptr;
    }
    changed_.notify_all();
    if (chunk == nullptr) return;
    Back(chunk);
  }
}

void ChunkStock::Back(char* chunk) {
  // Outside the lock: a taker may already use the chunk. Backing it writes nothing, so the
  // taker's first writes find their pages, or fault them in themselves.
  PrefaultForWrite(chunk, kChunkBytes);
  {
    const std::lock_guard hold(lock_);
    backing_ = false;
  }
  changed_.notify_all();
}

char* ChunkStock::Take() {
  std::unique_lock hold(lock_);
  if (taken_ == chunks_) return nullptr;
  changed_.wait(hold, [this] { return made_.size() > taken_; });
  char* const chunk = made_[taken_];
  if (chunk == nullptr) return nullptr;  // the kernel refused it: no more to come
  ++taken_;
  hold.unlock();
  changed_.notify_all();
  return chunk;
}

void ChunkStock::ReleaseSpare() {
  std::unique_lock hold(lock_);
  changed_.wait(hold, [this] { return !backing_; });
  for (size_t i = taken_; i < made_.size(); ++i) {
    if (made_[i] != nullptr) madvise(made_[i], kChunkBytes, MADV_DONTNEED);
  }
}

}  // namespace fe::dp
