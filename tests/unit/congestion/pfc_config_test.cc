#include "congestion/pfc_config.h"

#include <gtest/gtest.h>

#include <string>

namespace fe::cong {
namespace {

const Rate k100G = Rate::FromGbps(100);

// 802.1Qbb: a quantum is 512 bit times. 65535 quanta at 100 Gb/s:
// 65535 * 512 bit / 1e11 bit/s = 335,539.2 ns = 335,539,200 ps, exactly.
constexpr Time kMaxPause100G = Time::FromPs(335'539'200);

TEST(PauseDurationTest, IsQuantaTimes512BitTimes) {
  EXPECT_EQ(PauseDuration(0xFFFF, k100G), kMaxPause100G);
  // 65535 * 512 / 25e9 s = 1,342,156.8 ns.
  EXPECT_EQ(PauseDuration(0xFFFF, Rate::FromGbps(25)), Time::FromPs(1'342'156'800));
  // One quantum at 10 Gb/s: 51.2 ns.
  EXPECT_EQ(PauseDuration(1, Rate::FromGbps(10)), Time::FromPs(51'200));
  EXPECT_EQ(PauseDuration(0, k100G), Time::Zero());
}

TEST(PauseReceiverTest, MaxQuantaPauseLastsExactlyItsDurationToThePicosecond) {
  PauseReceiver rx;
  const Time t0 = Time::FromUs(3);
  rx.OnPauseFrame(t0, 0xFFFF, k100G);
  EXPECT_TRUE(rx.Paused(t0));
  EXPECT_TRUE(rx.Paused(t0 + kMaxPause100G - Time::FromPs(1)));
  EXPECT_FALSE(rx.Paused(t0 + kMaxPause100G));
  EXPECT_EQ(rx.PausedTime(t0 + Time::FromMs(1)), kMaxPause100G);
}

TEST(PauseReceiverTest, ZeroQuantaResumesAtOnce) {
  PauseReceiver rx;
  rx.OnPauseFrame(Time::FromNs(100), 0xFFFF, k100G);
  rx.OnPauseFrame(Time::FromNs(1100), 0, k100G);
  EXPECT_FALSE(rx.Paused(Time::FromNs(1100)));
  EXPECT_EQ(rx.PausedTime(Time::FromMs(1)), Time::FromNs(1000));
  // An XON to a queue that is not paused changes nothing.
  rx.OnPauseFrame(Time::FromNs(5000), 0, k100G);
  EXPECT_EQ(rx.PausedTime(Time::FromMs(1)), Time::FromNs(1000));
}

// Paused time is the measure of the union of pause stretches, whatever the frames did.
TEST(PauseReceiverTest, IntegratesPausedTimeAcrossRefreshOverlapAndExpiry) {
  const Time d = kMaxPause100G;
  PauseReceiver rx;
  // A pause refreshed halfway: one stretch [0, 1.5 d).
  rx.OnPauseFrame(Time::Zero(), 0xFFFF, k100G);
  const Time half = Time::FromPs(d.ps() / 2);
  rx.OnPauseFrame(half, 0xFFFF, k100G);
  EXPECT_EQ(rx.PausedTime(d), d);  // mid-stretch: all of [0, d)
  EXPECT_TRUE(rx.Paused(d));
  EXPECT_FALSE(rx.Paused(half + d));
  Time want = half + d;
  EXPECT_EQ(rx.PausedTime(Time::FromMs(10)), want);

  // A short pause overlapping a long one cuts it short: [t, t + 1 us + 1000 * 5.12 ns).
  const Time t = Time::FromMs(20);
  rx.OnPauseFrame(t, 0xFFFF, k100G);
  rx.OnPauseFrame(t + Time::FromUs(1), 1000, k100G);
  want += Time::FromUs(1) + Time::FromPs(1000 * 5120);
  EXPECT_EQ(rx.PausedTime(Time::FromMs(30)), want);

  // A new pause exactly at the expiry of the last one continues it seamlessly.
  const Time u = Time::FromMs(40);
  rx.OnPauseFrame(u, 1, k100G);                       // 5.12 ns
  rx.OnPauseFrame(u + Time::FromPs(5120), 1, k100G);  // starts as the first ends
  want += Time::FromPs(2 * 5120);
  EXPECT_EQ(rx.PausedTime(Time::FromMs(50)), want);
}

TEST(PauseSenderTest, RefreshesBeforeExpirySoACongestedPeerNeverResumes) {
  const StatusOr<PauseSenderConfig> config = Compile(PauseSenderParams{}, k100G);
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_EQ(config->quanta, 0xFFFF);
  EXPECT_EQ(config->pause_duration, kMaxPause100G);
  EXPECT_EQ(config->refresh_period, Time::FromPs(kMaxPause100G.ps() / 2));

  // The sender refreshes whenever due; the peer, fed those frames after a 1 us cable, must stay
  // paused at every instant from the first frame's arrival until well past ten pause times.
  const Time cable = Time::FromUs(1);
  PauseSender tx;
  PauseReceiver rx;
  tx.OnXoffSent(config.value(), Time::Zero());
  rx.OnPauseFrame(cable, config->quanta, k100G);
  const Time end = kMaxPause100G * 10;
  for (Time now = cable; now < end; now += Time::FromNs(997)) {
    if (tx.RefreshDue(now)) {
      tx.OnXoffSent(config.value(), now);
      rx.OnPauseFrame(now + cable, config->quanta, k100G);
    }
    ASSERT_TRUE(rx.Paused(now)) << now.ps();
  }
}

TEST(PauseSenderTest, XonCancelsRefreshAndStaleTimersFindNothingDue) {
  const PauseSenderConfig config = Compile(PauseSenderParams{}, k100G).value();
  PauseSender tx;
  tx.OnXoffSent(config, Time::Zero());
  tx.OnXonSent();
  EXPECT_FALSE(tx.RefreshDue(Time::FromMs(100)));
  // XOFF again 2 ns later: the timer armed by the first XOFF fires 2 ns early and must not send.
  tx.OnXoffSent(config, Time::FromNs(2));
  EXPECT_FALSE(tx.RefreshDue(config.refresh_period));
  EXPECT_TRUE(tx.RefreshDue(config.refresh_period + Time::FromNs(2)));
}

TEST(PauseSenderTest, RefusesBadParameters) {
  EXPECT_FALSE(Compile(PauseSenderParams{.quanta = 0}, k100G).ok());
  EXPECT_EQ(Compile(PauseSenderParams{.refresh_fraction = 1.0}, k100G).status().message(),
            "refresh_fraction (1.000000) outside (0, 1)");
  EXPECT_FALSE(Compile(PauseSenderParams{}, Rate::FromBps(0)).ok());
}

// Hand calculation for 100 Gb/s, 100 m, 4096-byte frames, 5 ns/m, default response:
//   cable delay      100 m * 5 ns/m            = 500 ns
//   cable bytes      100e9 b/s * 500e-9 s / 8  = 6,250 B; twice (both directions) = 12,500 B
//   frames           3 * 4,096                 = 12,288 B
//   pause frame      64 + 8 + 12               =     84 B
//   response         60 quanta * 512 b / 8     =  3,840 B
//   total                                        28,712 B
TEST(HeadroomTest, MatchesHandCalculationAt100GbpsAnd100Metres) {
  HeadroomParams params{.link_rate = k100G, .cable_length_m = 100, .max_frame_bytes = 4096};
  EXPECT_EQ(ComputeHeadroomBytes(params).value(), 28'712);
  // A 1 us peer response instead: 100e9 * 1e-6 / 8 = 12,500 B replaces the 3,840 B.
  params.peer_response_time = Time::FromUs(1);
  EXPECT_EQ(ComputeHeadroomBytes(params).value(), 28'712 - 3'840 + 12'500);
  // 25 Gb/s, 3 m: cable 15 ns -> 46.875 B, rounded up to 47 B each way;
  // 2 * 47 + 3 * 4096 + 84 + 3840 = 16,306 B.
  EXPECT_EQ(ComputeHeadroomBytes(HeadroomParams{.link_rate = Rate::FromGbps(25),
                                                .cable_length_m = 3,
                                                .max_frame_bytes = 4096})
                .value(),
            16'306);
}

TEST(HeadroomTest, RefusesBadLinksNamingTheField) {
  EXPECT_EQ(ComputeHeadroomBytes(HeadroomParams{.link_rate = Rate::FromBps(0)}).status().message(),
            "link_rate (0 bps) must be > 0");
  EXPECT_NE(ComputeHeadroomBytes(HeadroomParams{.cable_length_m = -1})
                .status()
                .message()
                .find("cable_length_m"),
            std::string::npos);
  EXPECT_EQ(ComputeHeadroomBytes(HeadroomParams{.max_frame_bytes = 10}).status().message(),
            "max_frame_bytes (10) < 64");
}

TEST(PfcThresholdTest, RefusesXonAboveXoffNamingBothFields) {
  EXPECT_EQ(
      Compile(PfcThresholdParams{.xoff_bytes = 10'000, .xon_bytes = 20'000}).status().message(),
      "xon_bytes (20000) > xoff_bytes (10000)");
  EXPECT_NE(Compile(PfcThresholdParams{.xon_bytes = 5'000}).status().message().find("xon_bytes"),
            std::string::npos);
  EXPECT_EQ(Compile(PfcThresholdParams{.xon_offset_bytes = -1}).status().message(),
            "xon_offset_bytes (-1) < 0");
  const StatusOr<PfcThresholdConfig> ok =
      Compile(PfcThresholdParams{.xoff_bytes = 20'000, .xon_bytes = 20'000});
  ASSERT_TRUE(ok.ok());
  EXPECT_FALSE(ok->dynamic_xoff);
  EXPECT_TRUE(ok->static_xon);
}

}  // namespace
}  // namespace fe::cong
