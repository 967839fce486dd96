#include "dataplane/chunk_stock.h"

#include <sys/mman.h>

#include <cstdint>

#include "core/prefault.h"

namespace fe::dp {

namespace {

constexpr size_t kPageBytes = 4096;  // the smallest page a chunk may be backed with

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
  // The first chunk may be in use already: it is backed by a call that writes nothing.
  PrefaultForWrite(made_[0], kChunkBytes);  // only this thread changes made_ after the constructor
  Backed();
  for (;;) {
    {
      std::unique_lock hold(lock_);
      // One ahead of those taken: the next growth's chunk is ready, and no more is held.
      changed_.wait(hold, [this] { return stopping_ || made_.size() <= taken_; });
      if (stopping_ || made_.size() == chunks_) return;
      backing_ = true;
    }
    char* const chunk = MapAligned(kChunkBytes);
    // No one sees the chunk before it is backed, so its pages are faulted in by writes of zero,
    // which take no process-wide lock. The call the first chunk needs holds the process's mmap
    // lock while it backs the chunk (0.2-5 ms), and every other thread's mmap, munmap and brk,
    // malloc's included, would wait for it.
    if (chunk != nullptr) {
      for (size_t at = 0; at < kChunkBytes; at += kPageBytes) {
        static_cast<volatile char*>(chunk)[at] = 0;
      }
    }
    {
      const std::lock_guard hold(lock_);
      made_.push_back(chunk);
    }
    Backed();
    if (chunk == nullptr) return;
  }
}

void ChunkStock::Backed() {
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
