#include "core/event_queue.h"

#include <gtest/gtest.h>

#include <set>
#include <span>
#include <utility>
#include <vector>

#include "core/random.h"

namespace fe {
namespace {

// A reference that is obviously right: an ordered set keyed by (time, sequence).
class Reference {
 public:
  void Push(const Event& e) { s_.emplace(e.at.ps(), e.seq); }
  std::pair<int64_t, uint64_t> Pop() {
    const auto first = *s_.begin();
    s_.erase(s_.begin());
    return first;
  }
  bool empty() const { return s_.empty(); }

 private:
  std::set<std::pair<int64_t, uint64_t>> s_;
};

// The queue under test and the reference, fed the same events.
struct QueueAndReference {
  EventQueue q;
  Reference ref;
  uint64_t seq = 0;
  void Push(Time at) {
    const Event e{at, seq++, nullptr, 0};
    q.Push(e);
    ref.Push(e);
  }
};

// Drives both with the pattern a simulation produces: pop the earliest, then push a few events
// at or after its time, some within nanoseconds (the same bucket), some a link delay later,
// some far beyond the ring's window (timers), and sometimes into an emptied queue.
void CompareWithReference(uint64_t seed, int steps, int64_t max_near_ps, int64_t max_far_ps) {
  Random rng(seed);
  QueueAndReference both;
  Time now;
  for (int i = 0; i < 8; ++i) both.Push(Time::FromPs(static_cast<int64_t>(rng.NextBelow(1000000))));
  for (int step = 0; step < steps; ++step) {
    if (both.q.empty()) {
      ASSERT_TRUE(both.ref.empty());
      both.Push(now + Time::FromPs(static_cast<int64_t>(rng.NextBelow(max_far_ps))));
      continue;
    }
    const uint64_t top_seq = both.q.top().seq;
    const Event got = both.q.Pop();
    const auto [want_ps, want_seq] = both.ref.Pop();
    ASSERT_EQ(got.seq, top_seq);
    ASSERT_EQ(got.seq, want_seq) << "step " << step;
    ASSERT_EQ(got.at.ps(), want_ps);
    now = got.at;
    const uint64_t pushes = rng.NextBelow(3);  // 0, 1 or 2: the queue breathes
    for (uint64_t k = 0; k < pushes; ++k) {
      const uint64_t kind = rng.NextBelow(10);
      int64_t delay = 0;
      if (kind < 2) {
        delay = 0;  // same instant
      } else if (kind < 8) {
        delay = static_cast<int64_t>(rng.NextBelow(max_near_ps));
      } else {
        delay = static_cast<int64_t>(rng.NextBelow(max_far_ps));
      }
      both.Push(now + Time::FromPs(delay));
    }
  }
  while (!both.q.empty()) ASSERT_EQ(both.q.Pop().seq, both.ref.Pop().second);
  EXPECT_TRUE(both.ref.empty());
}

TEST(EventQueueTest, PopsInTimeThenInsertionOrderLikeAFullScan) {
  // Near events within 2 us (inside the ring's 4.2 us window), timers up to 70 ms away.
  for (uint64_t seed = 1; seed <= 20; ++seed)
    CompareWithReference(seed, 20000, 2000000, 70000000000);
}

TEST(EventQueueTest, NearEventsBeyondTheWindowAndRewindsStayOrdered) {
  // Near delays up to 10 us exceed the 4.2 us window, so pushes land both in the ring and
  // among the timers, and the cursor often has to move back.
  for (uint64_t seed = 100; seed <= 120; ++seed)
    CompareWithReference(seed, 20000, 10000000, 20000000);
}

// TakeBefore(end) must hand over exactly the events before end, whatever mix of single pops,
// late pushes and timers came first, and leave the rest to pop in order: checked against the
// reference, with windows of random length that mostly end inside a bucket. Times fall on a
// 512 ps grid, so that events due exactly at a window's end are common.
TEST(EventQueueTest, TakeBeforeTakesExactlyTheEventsBeforeItsEnd) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Random rng(seed);
    QueueAndReference both;
    Time now;
    for (int step = 0; step < 3000; ++step) {
      const uint64_t pushes = rng.NextBelow(6);
      for (uint64_t k = 0; k < pushes; ++k) {
        const uint64_t kind = rng.NextBelow(10);
        const int64_t delay = kind < 2   ? 0
                              : kind < 9 ? static_cast<int64_t>(rng.NextBelow(3000000))
                                         : static_cast<int64_t>(rng.NextBelow(50000000));
        both.Push(now + Time::FromPs(delay / 512 * 512));
      }
      if (both.q.empty()) continue;
      if (rng.NextBelow(4) == 0) {  // a single pop now and then, leaving a sorted run behind
        const Event got = both.q.Pop();
        ASSERT_EQ(got.seq, both.ref.Pop().second) << "seed " << seed << " step " << step;
        now = got.at;
        continue;
      }
      const Time end = now + Time::FromPs(512 * (1 + static_cast<int64_t>(rng.NextBelow(3000))));
      std::vector<std::span<const Event>> taken;
      both.q.TakeBefore(end, &taken);
      std::set<uint64_t> got;
      size_t taken_count = 0;
      for (const std::span<const Event> span : taken) {
        for (const Event& e : span) {
          ASSERT_LT(e.at, end);
          got.insert(e.seq);
          ++taken_count;
        }
      }
      // Pushes before the spans are released must not touch them.
      if (rng.NextBelow(2) == 0) {
        for (int k = 0; k < 70; ++k) both.Push(end + Time::FromPs(512 * k));
        size_t count_after = 0;
        for (const std::span<const Event> span : taken) count_after += span.size();
        ASSERT_EQ(count_after, taken_count);
        for (const std::span<const Event> span : taken) {
          for (const Event& e : span) ASSERT_TRUE(got.count(e.seq) == 1 && e.at < end);
        }
      }
      both.q.ReleaseTaken();
      std::set<uint64_t> want;
      while (!both.ref.empty()) {
        const auto [at_ps, s] = both.ref.Pop();
        if (at_ps >= end.ps()) {
          both.ref.Push(Event{Time::FromPs(at_ps), s, nullptr, 0});
          break;
        }
        want.insert(s);
      }
      ASSERT_EQ(got, want) << "seed " << seed << " step " << step;
      ASSERT_EQ(taken_count, want.size());
      now = end;
    }
    while (!both.q.empty()) ASSERT_EQ(both.q.Pop().seq, both.ref.Pop().second);
    EXPECT_TRUE(both.ref.empty());
  }
}

// The scheduler prefetches for the events PeekAhead names: with no push in between, the k-th event
// ahead must be the one popped k pops later (here within one bucket, pushed out of order).
TEST(EventQueueTest, PeekAheadNamesTheEventsPoppedNext) {
  EventQueue q;
  Random rng(7);
  for (uint64_t i = 0; i < 40; ++i) {
    q.Push(Event{Time::FromPs(static_cast<int64_t>(rng.NextBelow(4000))), i, nullptr, 0});
  }
  std::vector<uint64_t> popped;
  std::vector<std::vector<uint64_t>> peeked;
  while (!q.empty()) {
    q.top();  // sorts the bucket: what PeekAhead reads
    std::vector<uint64_t> ahead;
    for (size_t k = 0; const Event* e = q.PeekAhead(k); ++k) ahead.push_back(e->seq);
    peeked.push_back(ahead);
    popped.push_back(q.Pop().seq);
  }
  ASSERT_EQ(popped.size(), 40u);
  for (size_t i = 0; i < popped.size(); ++i) {
    for (size_t k = 0; k < peeked[i].size(); ++k) {
      ASSERT_LT(i + k, popped.size());
      EXPECT_EQ(peeked[i][k], popped[i + k]) << "pop " << i << ", " << k << " ahead";
    }
  }
  // All 40 lie in one 4 ns bucket: before the first pop, the whole run is known.
  EXPECT_EQ(peeked[0].size(), 40u);
}

TEST(EventQueueTest, EqualTimesKeepInsertionOrder) {
  EventQueue q;
  for (uint64_t i = 0; i < 100; ++i) q.Push(Event{Time::FromNs(5), i, nullptr, 0});
  for (uint64_t i = 0; i < 100; ++i) EXPECT_EQ(q.Pop().seq, i);
  EXPECT_TRUE(q.empty());
}

}  // namespace
}  // namespace fe
