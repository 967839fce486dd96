#include "core/event_queue.h"

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

EventQueue::EventQueue() : buckets_(kBuckets) {}

void EventQueue::Push(const Event& e) {
  const uint64_t b = BucketOf(e.at);
  if (size_ == 0) cursor_ = highest_ = b;  // an empty queue's window starts at its first event
  // After a pop the cursor may already stand on a later bucket than a new event's (it moved on
  // to the next pending event); move it back.
  if (b < cursor_) Rewind(b);
  ++size_;
  if (b < cursor_ + kBuckets) {
    PushNear(b, e);
  } else {
    far_.Push(e);
  }
}

void EventQueue::Rewind(uint64_t b) {
  // The window shrinks to [b, b + kBuckets): ring events beyond it become timers again. Rare
  // with a cursor that moved on by a few buckets (ring events lie mostly within a link's delay);
  // after a jump to a distant timer, the whole ring moves.
  const uint64_t end = b + kBuckets;
  if (highest_ >= end) {
    for (uint64_t w = 0; w < kBuckets / 64; ++w) {
      for (uint64_t bits = occupied_[w]; bits != 0; bits &= bits - 1) {
        const uint64_t slot = w * 64 + static_cast<uint64_t>(__builtin_ctzll(bits));
        const uint64_t abs = cursor_ + ((slot - cursor_) & kMask);
        if (abs < end) continue;
        EventHeap& bucket = buckets_[slot];
        while (!bucket.empty()) {
          far_.Push(bucket.Pop());
          --near_;
        }
        occupied_[w] &= ~(uint64_t{1} << (slot % 64));
      }
    }
    highest_ = end - 1;
  }
  cursor_ = b;
}

Event EventQueue::Pop() {
  const uint64_t slot = cursor_ & kMask;
  const Event e = buckets_[slot].Pop();
  if (buckets_[slot].empty()) occupied_[slot / 64] &= ~(uint64_t{1} << (slot % 64));
  --near_;
  --size_;
  if (size_ > 0) Settle();
  return e;
}

void EventQueue::PullTimersInto(uint64_t window_end) {
  while (!far_.empty() && BucketOf(far_.top().at) < window_end) {
    const Event e = far_.Pop();
    PushNear(BucketOf(e.at), e);
  }
}

void EventQueue::PushNear(uint64_t b, const Event& e) {
  const uint64_t slot = b & kMask;
  buckets_[slot].Push(e);
  occupied_[slot / 64] |= uint64_t{1} << (slot % 64);
  ++near_;
  if (b > highest_) highest_ = b;
}

uint64_t EventQueue::DistanceToNextOccupied(uint64_t from) const {
  const uint64_t start = from & kMask;
  uint64_t word = start / 64;
  uint64_t bits = occupied_[word] & (~uint64_t{0} << (start % 64));
  for (uint64_t scanned = 0; scanned <= kBuckets / 64; ++scanned) {
    if (bits != 0) {
      const uint64_t slot = word * 64 + static_cast<uint64_t>(__builtin_ctzll(bits));
      return (slot - start) & kMask;
    }
    word = (word + 1) % (kBuckets / 64);
    bits = occupied_[word];
  }
  return kBuckets;  // not reached while near_ > 0
}

void EventQueue::Settle() {
  if (near_ == 0) {
    // Nothing near: jump the window to the earliest timer.
    cursor_ = BucketOf(far_.top().at);
    PullTimersInto(cursor_ + kBuckets);
    return;
  }
  // Timers entering the window as it slides lie beyond its old end, so after the nearest
  // ring event: pulling them in once the cursor has moved keeps the order.
  const uint64_t d = DistanceToNextOccupied(cursor_);
  if (d == 0) return;
  cursor_ += d;
  PullTimersInto(cursor_ + kBuckets);
}

}  // namespace fe
