#include "dataplane/realtime/tsc_clock.h"

#include <gtest/gtest.h>

namespace fe::dp {
namespace {

// hz cycles are one second by definition of the rate; the 32.32 fixed-point conversion may be
// off by the rounding of 1e12 / hz to 2^-32 ps, times hz cycles: below 1 ps for any TSC slower
// than 4.29 GHz.
TEST(TscClockTest, OneSecondOfCyclesIsOneSecond) {
  const TscClock clock;
  ASSERT_GT(clock.hz(), 0u);
  const int64_t one_s_ps = clock.CyclesToTime(clock.hz()).ps();
  EXPECT_LE(std::abs(one_s_ps - 1000000000000LL), 1);
  EXPECT_EQ(clock.CyclesToTime(0), Time::Zero());
}

TEST(TscClockTest, StartsNearZeroAndNeverGoesBack) {
  const TscClock clock;
  Time last = clock.Now();
  EXPECT_LT(last, Time::FromMs(100));  // measured from construction
  for (int i = 0; i < 100000; ++i) {
    const Time now = clock.Now();
    ASSERT_GE(now, last);
    last = now;
  }
}

}  // namespace
}  // namespace fe::dp
