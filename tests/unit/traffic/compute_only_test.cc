// The compute-only schedule: starts when the network takes no time, by hand on a small graph,
// including a message that waits for one added after it (as trace files write them).
#include "traffic/compute_only.h"

#include <gtest/gtest.h>

namespace fe {
namespace {

Flow At(Time start) {
  Flow f;
  f.src_host = 0;
  f.dst_host = 1;
  f.size_bytes = 1000;
  f.start = start;
  return f;
}

TEST(ComputeOnlyTest, AMessageStartsAtItsLastDependencyPlusItsDelayOrItsOwnStart) {
  Workload w;
  const uint32_t deps_of_0[] = {2};
  const uint32_t deps_of_1[] = {0, 2};
  w.Add(At(Time::FromUs(1)), deps_of_0, Time::FromUs(10));  // waits for a later id
  w.Add(At(Time::FromUs(100)), deps_of_1, Time::FromUs(5));
  w.Add(At(Time::FromUs(3)));
  const std::vector<Time> starts = ComputeOnlyStarts(w);
  ASSERT_EQ(starts.size(), 3u);
  EXPECT_EQ(starts[2], Time::FromUs(3));
  EXPECT_EQ(starts[0], Time::FromUs(13));   // 3 + 10, later than its own 1
  EXPECT_EQ(starts[1], Time::FromUs(100));  // max(13, 3) + 5 = 18 is earlier than its own 100
}

}  // namespace
}  // namespace fe
