// A FIFO of trivially copyable items held in fixed-size chunks that come from, and go back to, a
// free list of the calling thread. A queue holds only the chunks its items fill (none when
// empty), so thousands of queues whose peaks come at different times share one pool of chunks
// instead of each keeping its own peak's capacity, as a growable ring (core/fifo.h) does.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace fe {

// Four cache lines: 15 packet-queue entries of 16 bytes after the link. Larger chunks leave more
// unfilled at each queue's ends, smaller ones spend more on links (512 and 128 bytes each cost
// some 0.3 MiB more at k = 16's peak).
inline constexpr size_t kFifoChunkBytes = 256;

// The chunks of every ChunkedFifo. Each thread takes from and gives to a free list of its own,
// without locks: a chunk given back on another thread than the one it came from joins that
// thread's list. Chunks are made a slab at a time and never given back to the heap; a thread's
// free chunks go to a shared list when it ends, where the next thread short of chunks takes them.
class FifoChunkPool {
 public:
  static void* Take() {
    void* c = t_free_;
    if (c == nullptr) [[unlikely]] {
      return Refill();
    }
    t_free_ = *static_cast<void**>(c);
    return c;
  }
  static void Give(void* chunk) {
    *static_cast<void**>(chunk) = t_free_;
    t_free_ = chunk;
  }
  // Chunks on the calling thread's free list (walks it: for tests and measurements).
  static size_t FreeChunks();
  // Chunks made so far by every thread (the pool's memory is this x kFifoChunkBytes).
  static size_t ChunksMade();

 private:
  // Gives the thread's free chunks to the shared list when the thread ends.
  struct ThreadExit {
    ~ThreadExit();
  };
  [[gnu::cold, gnu::noinline]] static void* Refill();
  static constinit inline thread_local void* t_free_ = nullptr;
};

template <typename T>
class ChunkedFifo {
  static_assert(std::is_trivially_copyable_v<T>);
  // A chunk: its link to the next, then the items.
  struct Chunk {
    Chunk* next;
  };
  // Items a power of two long up to a line start on a multiple of their size, so none straddles
  // two cache lines (the chunk is line-aligned).
  static constexpr size_t kItemsOffset =
      std::max({sizeof(Chunk), alignof(T), std::min<size_t>(std::bit_floor(sizeof(T)), 64)});
  static_assert(alignof(T) <= 64, "chunks are cache-line aligned");

 public:
  // Items per chunk: what fits after the link.
  static constexpr uint32_t kItems = (kFifoChunkBytes - kItemsOffset) / sizeof(T);
  static_assert(kItems >= 2 && kItems < 65536);

  ChunkedFifo() = default;
  ChunkedFifo(const ChunkedFifo&) = delete;
  ChunkedFifo& operator=(const ChunkedFifo&) = delete;
  ~ChunkedFifo() {
    for (Chunk* c = head_; c != nullptr;) {
      Chunk* next = c->next;
      FifoChunkPool::Give(c);
      c = next;
    }
  }

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }

  void push(const T& v) {
    if (tail_pos_ == kItems) [[unlikely]]
      AddChunk();
    Items(tail_)[tail_pos_++] = v;
    ++size_;
  }
  T& front() { return Items(head_)[head_pos_]; }
  const T& front() const { return Items(head_)[head_pos_]; }
  T pop() {
    const T v = Items(head_)[head_pos_++];
    if (--size_ == 0) {
      // The last item gone, so is the last chunk: an empty queue holds no memory.
      FifoChunkPool::Give(head_);
      head_ = tail_ = nullptr;
      head_pos_ = 0;
      tail_pos_ = kItems;
    } else if (head_pos_ == kItems) {
      Chunk* next = head_->next;
      FifoChunkPool::Give(head_);
      head_ = next;
      head_pos_ = 0;
    }
    return v;
  }

 private:
  static T* Items(Chunk* c) {
    return reinterpret_cast<T*>(reinterpret_cast<char*>(c) + kItemsOffset);
  }
  static const T* Items(const Chunk* c) {
    return reinterpret_cast<const T*>(reinterpret_cast<const char*>(c) + kItemsOffset);
  }
  void AddChunk() {
    Chunk* c = static_cast<Chunk*>(FifoChunkPool::Take());
    c->next = nullptr;
    if (tail_ != nullptr) {
      tail_->next = c;
    } else {
      head_ = c;
    }
    tail_ = c;
    tail_pos_ = 0;
  }

  Chunk* head_ = nullptr;
  Chunk* tail_ = nullptr;
  uint32_t size_ = 0;
  uint16_t head_pos_ = 0;       // next item to pop in head_
  uint16_t tail_pos_ = kItems;  // next free slot in tail_; kItems: none (full or no chunk)
};

}  // namespace fe
