#include "congestion/pfc_watchdog.h"

#include <gtest/gtest.h>

namespace fe::cong {
namespace {

const PfcWatchdogConfig kConfig = Compile(PfcWatchdogParams{.detection_time = Time::FromMs(200),
                                                            .restoration_time = Time::FromMs(300)})
                                      .value();
constexpr Time kPs = Time::FromPs(1);

TEST(PfcWatchdogTest, StormIsDeclaredExactlyAtTheDetectionTimeNotBefore) {
  PfcWatchdog wd;
  const Time t0 = Time::FromUs(7);
  EXPECT_EQ(wd.Update(kConfig, t0, /*paused=*/true, /*has_packets=*/true),
            WatchdogTransition::kNone);
  EXPECT_EQ(wd.NextCheck(kConfig), t0 + Time::FromMs(200));
  EXPECT_EQ(wd.Update(kConfig, t0 + Time::FromMs(200) - kPs, true, true),
            WatchdogTransition::kNone);
  EXPECT_FALSE(wd.stormed());
  EXPECT_EQ(wd.Update(kConfig, t0 + Time::FromMs(200), true, true),
            WatchdogTransition::kStormDetected);
  EXPECT_TRUE(wd.stormed());
}

TEST(PfcWatchdogTest, OnlyAnUnbrokenPauseWithPacketsWaitingCounts) {
  PfcWatchdog wd;
  // Paused but empty: a healthy idle queue, never a storm.
  wd.Update(kConfig, Time::Zero(), true, false);
  EXPECT_EQ(wd.Update(kConfig, Time::FromSeconds(5), true, false), WatchdogTransition::kNone);
  EXPECT_EQ(wd.NextCheck(kConfig), Time::Infinite());
  // Paused with packets, released for a moment at 150 ms: the clock restarts there.
  const Time t0 = Time::FromSeconds(10);
  wd.Update(kConfig, t0, true, true);
  wd.Update(kConfig, t0 + Time::FromMs(150), false, true);
  wd.Update(kConfig, t0 + Time::FromMs(151), true, true);
  EXPECT_EQ(wd.Update(kConfig, t0 + Time::FromMs(350), true, true), WatchdogTransition::kNone);
  EXPECT_EQ(wd.Update(kConfig, t0 + Time::FromMs(351), true, true),
            WatchdogTransition::kStormDetected);
}

TEST(PfcWatchdogTest, RestoresOnceNoPauseHasHeldForTheRestorationTime) {
  PfcWatchdog wd;
  wd.Update(kConfig, Time::Zero(), true, true);
  ASSERT_EQ(wd.Update(kConfig, Time::FromMs(200), true, true), WatchdogTransition::kStormDetected);
  // The storm goes on: pauses keep arriving, so no restoration however long.
  EXPECT_EQ(wd.Update(kConfig, Time::FromSeconds(3), true, false), WatchdogTransition::kNone);
  EXPECT_EQ(wd.NextCheck(kConfig), Time::Infinite());
  // The pause stops at 4 s, resumes briefly at 4.1 s, stops for good at 4.2 s.
  wd.Update(kConfig, Time::FromSeconds(4), false, true);
  wd.Update(kConfig, Time::FromMs(4100), true, true);
  wd.Update(kConfig, Time::FromMs(4200), false, true);
  EXPECT_EQ(wd.NextCheck(kConfig), Time::FromMs(4500));
  EXPECT_EQ(wd.Update(kConfig, Time::FromMs(4500) - kPs, false, true), WatchdogTransition::kNone);
  EXPECT_TRUE(wd.stormed());
  EXPECT_EQ(wd.Update(kConfig, Time::FromMs(4500), false, true), WatchdogTransition::kRestored);
  EXPECT_FALSE(wd.stormed());
  // Back to normal: a new storm needs a full detection time again.
  wd.Update(kConfig, Time::FromSeconds(5), true, true);
  EXPECT_EQ(wd.NextCheck(kConfig), Time::FromMs(5200));
}

TEST(PfcWatchdogTest, RefusesNonPositiveTimesNamingTheField) {
  EXPECT_EQ(Compile(PfcWatchdogParams{.detection_time = Time::Zero()}).status().message(),
            "detection_time (0 ps) must be > 0");
  EXPECT_EQ(Compile(PfcWatchdogParams{.restoration_time = Time::FromPs(-1)}).status().message(),
            "restoration_time (-1 ps) must be > 0");
}

}  // namespace
}  // namespace fe::cong
