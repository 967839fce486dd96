#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "core/units.h"

namespace fe {
namespace {

constexpr int64_t kMaxPs = std::numeric_limits<int64_t>::max();

TEST(TimeTest, SumPastTheLargestTimeIsInfinite) {
  // 2^63 - 1 ps is about 106.75 days: a run at 100 days that arms a 10 s timeout lands past it.
  const Time now = Time::FromPs(100LL * 86400 * 1'000'000'000'000);
  const Time rto = Time::FromNs(10'000'000'000);
  EXPECT_EQ(now + rto, Time::FromPs(now.ps() + rto.ps()));  // still representable
  const Time late = Time::FromPs(kMaxPs - rto.ps() + 1);
  EXPECT_EQ(late + rto, Time::Infinite());
  EXPECT_GT(late + rto, late);  // a deadline never lies before the time it was set from
}

TEST(TimeTest, InfinitePlusAnyDelayStaysInfinite) {
  EXPECT_EQ(Time::Infinite() + Time::FromPs(1), Time::Infinite());
  EXPECT_EQ(Time::Infinite() + Time::Infinite(), Time::Infinite());
  Time t = Time::Infinite();
  t += Time::FromNs(67'108'864);
  EXPECT_EQ(t, Time::Infinite());
}

TEST(TimeTest, ExactArithmeticInsideTheRange) {
  EXPECT_EQ(Time::FromNs(3) + Time::FromPs(500), Time::FromPs(3500));
  EXPECT_EQ(Time::FromNs(3) - Time::FromNs(5), Time::FromPs(-2000));
  EXPECT_EQ(Time::FromNs(7) * 3, Time::FromNs(21));
  EXPECT_EQ(Time::Infinite() - Time::FromPs(1), Time::FromPs(kMaxPs - 1));
}

TEST(TimeTest, ProductsAndDifferencesSaturateByTheirSign) {
  EXPECT_EQ(Time::FromNs(67'108'864) * (int64_t{1} << 40), Time::Infinite());
  EXPECT_EQ(Time::FromNs(-1) * (int64_t{1} << 60),
            Time::FromPs(std::numeric_limits<int64_t>::min()));
  EXPECT_EQ(Time::Infinite() - Time::FromPs(-1), Time::Infinite());
  EXPECT_LT(Time::FromPs(-kMaxPs) - Time::FromPs(10), Time::FromPs(-kMaxPs));
}

}  // namespace
}  // namespace fe
