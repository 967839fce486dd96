// The scheduler's pending events, in (time, insertion order): a calendar queue. Near events
// (within a window of a few microseconds, where a fabric's link arrivals and transmissions fall)
// are appended unsorted to the bucket of their 4 ns slice of time; when the earliest bucket is
// reached it is sorted once into a run that is then read in order. Later events (timers) wait in
// a 4-ary heap and move into the buckets as the window reaches them. Pushing costs an append to
// a bucket that is hot in cache, popping a read of the next array slot, and the events to come
// are known several steps ahead, so the scheduler can prefetch what they will touch.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/units.h"

namespace fe {

class EventHandler;

struct Event {
  Time at;
  uint64_t seq;
  EventHandler* handler;
  uint64_t arg;
  bool Before(const Event& o) const { return at < o.at || (at == o.at && seq < o.seq); }
};
static_assert(sizeof(Event) == 32,
              "an event is 32 bytes, two to a cache line: every push and window copies one, and a "
              "frame on a wire costs its mbuf and its arrival event (docs/performance.md, memory)");

// The scheduler keeps an event's domain in the low bits of its sequence number: the event stays
// 32 bytes, and the insertion order, in the high bits, still decides ties.
inline constexpr int kEventDomainBits = 24;
inline uint32_t DomainOf(const Event& e) {
  return static_cast<uint32_t>(e.seq & ((uint64_t{1} << kEventDomainBits) - 1));
}

// Stores e into *slot field by field: a copy of the whole event would read it back as one wide
// load from the narrower stores that built it, which the store buffer cannot forward (a stall per
// event). Inline, so that the fields come straight from the registers the caller built them in.
inline void StoreEvent(const Event& e, Event* slot) {
  slot->at = e.at;
  slot->seq = e.seq;
  slot->handler = e.handler;
  slot->arg = e.arg;
}

// A 4-ary min-heap of events: half the depth of a binary heap, and a node's children share a
// cache line.
class EventHeap {
 public:
  bool empty() const { return v_.empty(); }
  size_t size() const { return v_.size(); }
  const Event& top() const { return v_.front(); }
  void Push(const Event& e);
  Event Pop();

 private:
  void SiftUp(size_t i);
  void SiftDown(size_t i);
  std::vector<Event> v_;
};

class EventQueue {
 public:
  EventQueue();
  EventQueue(const EventQueue&) = delete;
  EventQueue& operator=(const EventQueue&) = delete;
  ~EventQueue();

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  // The earliest event; the queue must not be empty.
  const Event& top() {
    Settle();
    return FromLate() ? late_.top() : run_[run_pos_];
  }
  // e.at must not be earlier than the last popped event's time. Inline: it is most of the cost
  // of scheduling an event, and the event's fields then go straight into their slot.
  [[gnu::always_inline]] void Push(const Event& e) {
    const int64_t b = BucketOf(e.at);
    // An empty queue's window starts where it was last drained to: a later push may still come
    // before this one.
    if (size_ == 0) cursor_ = (b < drained_ ? b : drained_) - 1;
    ++size_;
    if (b > cursor_ && b < cursor_ + kBuckets) {
      Append(b, e);
    } else if (b <= cursor_) {
      late_.Push(e);
    } else {
      far_.Push(e);
    }
  }
  // Removes the earliest event; the queue must not be empty.
  Event Pop();
  // Moves every event before `end` out of the queue, as spans appended to *out, ordered only as
  // far as their buckets of time are: the caller sorts what it needs, which for a few events of
  // one domain costs less than sorting every bucket whole. The spans are the buckets' own
  // storage, not copies; they stay valid until ReleaseTaken or the next TakeBefore, and pushes
  // in between do not touch them.
  void TakeBefore(Time end, std::vector<std::span<const Event>>* out);
  void ReleaseTaken();
  // The event k places behind the next in the sorted bucket being popped (k = 0: the next
  // itself), or nullptr when the bucket holds no such event. Only for prefetching: an event
  // pushed since the bucket was sorted may come before it.
  const Event* PeekAhead(size_t k) const {
    return run_pos_ + k < run_len_ ? &run_[run_pos_ + k] : nullptr;
  }

 private:
  static constexpr int kBucketShift = 12;    // 4.096 ns per bucket
  static constexpr int64_t kBuckets = 1024;  // a 4.2 us window
  static constexpr int64_t kMask = kBuckets - 1;
  static constexpr size_t kChunkEvents = 63;  // a chunk fills 2 KB
  static constexpr size_t kChunksPerSlab = 32;
  // Line-aligned, so that no event straddles two lines; 32 of them make a 64 KB slab.
  struct alignas(64) Chunk {
    std::array<Event, kChunkEvents> events;
    Chunk* next;
  };
  static_assert(sizeof(Chunk) == 2048);
  // The chunk being filled (its count here, so an append touches only the slot it writes) and
  // the full ones behind it.
  struct Bucket {
    Chunk* head = nullptr;
    uint32_t count = 0;
  };
  static int64_t BucketOf(Time t) { return t.ps() >> kBucketShift; }

  bool RunDone() const { return run_pos_ == run_len_; }
  // The earliest event is in late_ rather than the run (after Settle).
  bool FromLate() const {
    return !late_.empty() && (RunDone() || late_.top().Before(run_[run_pos_]));
  }
  // Once the run and late_ are spent: moves the cursor to the next bucket holding events,
  // pulling in timers that enter the window on the way, and sorts that bucket into the run.
  void Settle() {
    if (RunDone() && late_.empty()) NextRun();
  }
  void NextRun();
  void SortRun();
  void PullTimersInto(int64_t window_end);
  [[gnu::always_inline]] void Append(int64_t b, const Event& e) {
    Bucket& bucket = buckets_[b & kMask];
    if (bucket.head == nullptr || bucket.count == kChunkEvents) [[unlikely]] {
      StartChunk(b);
    }
    Event* slot = &bucket.head->events[bucket.count++];
    StoreEvent(e, slot);
    // The bucket's next slots are written soon: ask for their line now, not at the write.
    __builtin_prefetch(slot + 2, 1);
    ++near_;
  }
  // Puts a fresh chunk at the head of bucket b.
  void StartChunk(int64_t b);
  Chunk* NewChunk();
  void FreeChunks(Chunk* c);
  // The first bucket after `b` (within the window) that holds events.
  int64_t NextOccupied(int64_t b) const;

  // cursor_'s events, sorted, in place in their chunk when they fit in one (run_chunk_, freed
  // with the next run), else gathered into spill_; run_pos_ is the next one to pop.
  Event* run_ = nullptr;
  size_t run_len_ = 0;
  size_t run_pos_ = 0;
  Chunk* run_chunk_ = nullptr;
  std::vector<Event> spill_;
  // SortRun's merge buffer (the run may end up in it) and the starts of its ascending stretches.
  std::vector<Event> scratch_;
  std::vector<size_t> bounds_;
  int64_t cursor_ = 0;  // absolute index of the bucket the run came from
  // Once the queue is empty: the bucket of the time it was emptied at (no push may be earlier).
  int64_t drained_ = 0;
  // Events pushed into buckets up to the cursor's after their run was sorted.
  EventHeap late_;
  std::array<Bucket, kBuckets> buckets_{};          // buckets after the cursor's, by slot
  std::array<uint64_t, kBuckets / 64> occupied_{};  // bit i: buckets_[i] is not empty
  size_t near_ = 0;                                 // events in buckets_
  size_t size_ = 0;
  EventHeap far_;
  // What the last TakeBefore handed over: whole buckets' chunks, and the events copied out of
  // a sorted run, the late heap (first) and the bucket that straddled its end (last).
  Chunk* taken_chunks_ = nullptr;
  std::vector<Event> taken_first_;
  std::vector<Event> taken_last_;
  std::vector<std::unique_ptr<Chunk[]>> slabs_;  // every chunk, owned, kChunksPerSlab a slab
  Chunk* free_ = nullptr;                        // spent chunks, the most recently used first
};

}  // namespace fe
