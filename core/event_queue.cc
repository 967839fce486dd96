#include "core/event_queue.h"

#include <algorithm>

#include "core/prefault.h"

namespace fe {

namespace {
constexpr size_t kArity = 4;
}

void EventHeap::Push(const Event& e) {
  v_.push_back(e);
  SiftUp(v_.size() - 1);
}

Event EventHeap::Pop() {
  Event top = v_.front();
  v_.front() = v_.back();
  v_.pop_back();
  if (!v_.empty()) SiftDown(0);
  return top;
}

void EventHeap::SiftUp(size_t i) {
  Event e = v_[i];
  while (i > 0) {
    const size_t parent = (i - 1) / kArity;
    if (!e.Before(v_[parent])) break;
    v_[i] = v_[parent];
    i = parent;
  }
  v_[i] = e;
}

void EventHeap::SiftDown(size_t i) {
  const size_t n = v_.size();
  Event e = v_[i];
  for (;;) {
    const size_t first = i * kArity + 1;
    if (first >= n) break;
    size_t best = first;
    const size_t last = first + kArity < n ? first + kArity : n;
    for (size_t c = first + 1; c < last; ++c) {
      if (v_[c].Before(v_[best])) best = c;
    }
    if (!v_[best].Before(e)) break;
    v_[i] = v_[best];
    i = best;
  }
  v_[i] = e;
}

EventQueue::EventQueue() = default;
EventQueue::~EventQueue() = default;

Event EventQueue::Pop() {
  Settle();
  --size_;
  const Event e = FromLate() ? late_.Pop() : run_[run_pos_++];
  if (size_ == 0) drained_ = BucketOf(e.at);
  return e;
}

void EventQueue::TakeBefore(Time end, std::vector<std::span<const Event>>* out) {
  ReleaseTaken();
  // What single pops left: the rest of a sorted run, and late events. Both come first in time.
  while (!RunDone() && run_[run_pos_].at < end) {
    taken_first_.push_back(run_[run_pos_++]);
    --size_;
  }
  while (!late_.empty() && late_.top().at < end) {
    taken_first_.push_back(late_.Pop());
    --size_;
  }
  if (!taken_first_.empty()) out->emplace_back(taken_first_);
  if (!RunDone() || !late_.empty()) return;  // the rest of the run is at or after end
  const int64_t last = BucketOf(end - Time::FromPs(1));
  while (near_ > 0 || !far_.empty()) {
    const int64_t next = near_ > 0 ? NextOccupied(cursor_) : BucketOf(far_.top().at);
    if (next > last) break;
    cursor_ = next;
    PullTimersInto(cursor_ + kBuckets);
    Bucket& bucket = buckets_[cursor_ & kMask];
    size_t taken = 0;
    size_t kept = 0;  // of the taken, those that stay as late events
    if (cursor_ == last) {
      // The bucket straddles end: what is due at or after it waits among the late events.
      uint32_t count = bucket.count;
      for (Chunk* c = bucket.head; c != nullptr; c = c->next) {
        for (uint32_t i = 0; i < count; ++i) {
          const Event& e = c->events[i];
          if (e.at < end) {
            taken_last_.push_back(e);
          } else {
            late_.Push(e);
            ++kept;
          }
        }
        taken += count;
        count = kChunkEvents;
      }
      FreeChunks(bucket.head);
    } else {
      // The chunks themselves are handed over, and kept until ReleaseTaken.
      uint32_t count = bucket.count;
      Chunk* c = bucket.head;
      for (;;) {
        out->emplace_back(c->events.data(), count);
        taken += count;
        count = kChunkEvents;
        if (c->next == nullptr) break;
        c = c->next;
      }
      c->next = taken_chunks_;
      taken_chunks_ = bucket.head;
    }
    bucket = Bucket{};
    occupied_[(cursor_ & kMask) / 64] &= ~(uint64_t{1} << (cursor_ % 64));
    near_ -= taken;
    size_ -= taken - kept;
    if (cursor_ == last) break;
  }
  if (!taken_last_.empty()) out->emplace_back(taken_last_);
  if (size_ == 0) drained_ = BucketOf(end);
}

void EventQueue::ReleaseTaken() {
  FreeChunks(taken_chunks_);
  taken_chunks_ = nullptr;
  taken_first_.clear();
  taken_last_.clear();
}

EventQueue::Chunk* EventQueue::NewChunk() {
  if (free_ == nullptr) {
    // A slab at a time, its pages backed in one call: a chunk is half a page, and a busy
    // calendar takes hundreds of them while its first windows fill.
    slabs_.push_back(std::make_unique_for_overwrite<Chunk[]>(kChunksPerSlab));
    PrefaultForWrite(slabs_.back().get(), kChunksPerSlab * sizeof(Chunk));
    for (size_t i = kChunksPerSlab; i-- > 1;) {
      slabs_.back()[i].next = free_;
      free_ = &slabs_.back()[i];
    }
    return &slabs_.back()[0];
  }
  Chunk* c = free_;
  free_ = c->next;
  return c;
}

void EventQueue::FreeChunks(Chunk* c) {
  while (c != nullptr) {
    Chunk* next = c->next;
    c->next = free_;
    free_ = c;
    c = next;
  }
}

void EventQueue::StartChunk(int64_t b) {
  Bucket& bucket = buckets_[b & kMask];
  Chunk* fresh = NewChunk();
  fresh->next = bucket.head;
  bucket.head = fresh;
  bucket.count = 0;
  occupied_[(b & kMask) / 64] |= uint64_t{1} << (b % 64);
}

void EventQueue::PullTimersInto(int64_t window_end) {
  while (!far_.empty() && BucketOf(far_.top().at) < window_end) {
    const Event e = far_.Pop();
    Append(BucketOf(e.at), e);
  }
}

int64_t EventQueue::NextOccupied(int64_t b) const {
  // A bitmap scan, so a sparse window (real-time mode, the end of a run) costs as little as a
  // dense one.
  const int64_t start = (b + 1) & kMask;
  int64_t word = start / 64;
  uint64_t bits = occupied_[word] & (~uint64_t{0} << (start % 64));
  for (int64_t scanned = 0; scanned <= kBuckets / 64; ++scanned) {
    if (bits != 0) {
      const int64_t slot = word * 64 + __builtin_ctzll(bits);
      return b + 1 + ((slot - start) & kMask);
    }
    word = (word + 1) % (kBuckets / 64);
    bits = occupied_[word];
  }
  return b + kBuckets;  // not reached while near_ > 0
}

void EventQueue::NextRun() {
  // Timers lie at or beyond the window's end, so after every bucket in it: with buckets
  // occupied the next run is one of them, otherwise the window jumps to the earliest timer.
  cursor_ = near_ > 0 ? NextOccupied(cursor_) : BucketOf(far_.top().at);
  PullTimersInto(cursor_ + kBuckets);
  FreeChunks(run_chunk_);
  Bucket& bucket = buckets_[cursor_ & kMask];
  if (bucket.head->next == nullptr) {
    run_chunk_ = bucket.head;
    run_ = run_chunk_->events.data();
    run_len_ = bucket.count;
  } else {
    run_chunk_ = nullptr;
    spill_.assign(bucket.head->events.begin(), bucket.head->events.begin() + bucket.count);
    for (Chunk* c = bucket.head->next; c != nullptr; c = c->next) {
      spill_.insert(spill_.end(), c->events.begin(), c->events.end());
    }
    FreeChunks(bucket.head);
    run_ = spill_.data();
    run_len_ = spill_.size();
  }
  run_pos_ = 0;
  bucket = Bucket{};
  occupied_[(cursor_ & kMask) / 64] &= ~(uint64_t{1} << (cursor_ % 64));
  near_ -= run_len_;
  SortRun();
}

void EventQueue::SortRun() {
  // A bucket is a few sorted streams appended one after another: events that follow their push
  // by the same delay (a frame's arrival a serialisation and a link delay later, the end of its
  // transmission a serialisation later) are pushed in time order, and the streams with longer
  // delays were pushed earlier. Merging those ascending stretches costs a few passes where an
  // insertion sort would shift each event past most of the others.
  if (run_len_ <= 16) {  // a sparse bucket: an insertion sort is cheaper than finding stretches
    for (size_t i = 1; i < run_len_; ++i) {
      const Event e = run_[i];
      size_t j = i;
      for (; j > 0 && e.Before(run_[j - 1]); --j) run_[j] = run_[j - 1];
      run_[j] = e;
    }
    return;
  }
  bounds_.assign(1, 0);
  for (size_t i = 1; i < run_len_; ++i) {
    if (run_[i].Before(run_[i - 1])) bounds_.push_back(i);
  }
  if (bounds_.size() == 1) return;
  bounds_.push_back(run_len_);
  scratch_.resize(run_len_);
  Event* from = run_;
  Event* to = scratch_.data();
  const auto before = [](const Event& a, const Event& b) { return a.Before(b); };
  while (bounds_.size() > 2) {
    const size_t runs = bounds_.size() - 1;
    size_t kept = 0;
    for (size_t r = 0; r < runs; r += 2) {
      const size_t lo = bounds_[r];
      const size_t mid = bounds_[r + 1];
      const size_t hi = r + 1 < runs ? bounds_[r + 2] : mid;
      std::merge(from + lo, from + mid, from + mid, from + hi, to + lo, before);
      bounds_[kept++] = lo;
    }
    bounds_[kept++] = run_len_;
    bounds_.resize(kept);
    std::swap(from, to);
  }
  run_ = from;
}

}  // namespace fe
