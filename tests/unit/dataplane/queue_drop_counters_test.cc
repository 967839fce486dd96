#include <gtest/gtest.h>

#include "dataplane/drop_reason.h"

namespace fe::dp {
namespace {

// A queue keeps counts for its four drop reasons only; All() must put each back under its own
// reason, as the switch's per-queue counters read before they were compacted, and leave every
// other reason at zero.
TEST(QueueDropCountersTest, EachReasonComesBackUnderItself) {
  QueueDropCounters q;
  // Reason i gets i + 1 frames of 100 (i + 1) bytes: distinct counts, so a swapped pair shows.
  for (size_t i = 0; i < kQueueDropReasons.size(); ++i) {
    for (size_t n = 0; n <= i; ++n) q.Count(kQueueDropReasons[i], 100 * (i + 1));
  }
  const DropCounters all = q.All();
  uint64_t want_total = 0;
  for (size_t i = 0; i < kQueueDropReasons.size(); ++i) {
    const auto r = static_cast<size_t>(kQueueDropReasons[i]);
    EXPECT_EQ(all.packets[r], i + 1) << DropReasonName(kQueueDropReasons[i]);
    EXPECT_EQ(all.bytes[r], (i + 1) * 100 * (i + 1)) << DropReasonName(kQueueDropReasons[i]);
    want_total += i + 1;
  }
  // 1 + 2 + 3 + 4 frames, and nothing under the reasons a queue does not drop for.
  EXPECT_EQ(all.total_packets(), want_total);
  EXPECT_EQ(want_total, 10u);
  EXPECT_EQ(all.packets[static_cast<size_t>(DropReason::kTtlExpired)], 0u);
  EXPECT_EQ(all.packets[static_cast<size_t>(DropReason::kLinkDown)], 0u);
}

}  // namespace
}  // namespace fe::dp
