#include "congestion/dcqcn.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

namespace fe::cong {
namespace {

DcqcnConfig MustCompile(const DcqcnParams& params) {
  StatusOr<DcqcnConfig> config = Compile(params);
  EXPECT_TRUE(config.ok()) << config.status().message();
  return config.ok() ? config.value() : DcqcnConfig{};
}

constexpr int64_t kGbps = 1'000'000'000;
constexpr int64_t kMbps = 1'000'000;
constexpr int64_t kLineBps = 100 * kGbps;

// The rate sequence of the paper's equations with the SIGCOMM'15 parameters (T = 55 us,
// B = 10 MB, F = 5, R_AI = 40 Mb/s, R_HAI = 400 Mb/s, alpha_0 = 1), every value worked out by
// hand below. Exact: rates are integer b/s, a cut floors, an increase midpoint rounds up.
TEST(DcqcnTest, PaperTrajectoryMatchesHandComputedSequence) {
  const DcqcnConfig config = MustCompile(DcqcnParams::Sigcomm2015());
  DcqcnState s = InitialState(config);
  EXPECT_EQ(NextTimerDue(s), Time::Infinite());  // unthrottled: no timer

  // CNP 1 at 0: alpha = 1, so R_C = 100G * (1 - 1/2); R_T := old R_C. alpha' = (1-g)*1 + g = 1.
  OnCnp(config, s, Time::Zero());
  EXPECT_EQ(s.current_rate.bps(), 50 * kGbps);
  EXPECT_EQ(s.target_rate.bps(), 100 * kGbps);
  EXPECT_EQ(NextTimerDue(s), Time::FromUs(55));
  // CNP 2 at 10 us (no increase in between): R_T := 50G, R_C = 50G / 2; the timer restarts.
  OnCnp(config, s, Time::FromUs(10));
  EXPECT_EQ(s.current_rate.bps(), 25 * kGbps);
  EXPECT_EQ(s.target_rate.bps(), 50 * kGbps);
  EXPECT_EQ(NextTimerDue(s), Time::FromUs(65));

  // Fast recovery: 5 timer expiries, each halving the gap to R_T = 50G (25G, 12.5G, ... 0.78125G).
  const int64_t fast_recovery_bps[] = {37'500'000'000, 43'750'000'000, 46'875'000'000,
                                       48'437'500'000, 49'218'750'000};
  Time t = Time::FromUs(10);
  for (int64_t want_bps : fast_recovery_bps) {
    t += Time::FromUs(55);
    EXPECT_EQ(NextTimerDue(s), t);
    OnTimer(config, s, t);
    EXPECT_EQ(s.current_rate.bps(), want_bps);
    EXPECT_EQ(s.target_rate.bps(), 50 * kGbps);
    EXPECT_EQ(50 * kGbps - s.current_rate.bps(), (25 * kGbps) >> s.timer_stage);
  }

  // Timer stage 5, byte stage 0: additive increase. R_T = 50.04G, R_C = (49.21875G + 50.04G) / 2.
  t += Time::FromUs(55);
  OnTimer(config, s, t);
  EXPECT_EQ(s.target_rate.bps(), 50'040'000'000);
  EXPECT_EQ(s.current_rate.bps(), 49'629'375'000);

  // Five byte-counter expiries (B bytes each), still additive (byte stage < 5). The bytes are
  // injected at once: this checks the state machine, not a sending pace.
  const int64_t additive_target_bps[] = {50'080'000'000, 50'120'000'000, 50'160'000'000,
                                         50'200'000'000, 50'240'000'000};
  const int64_t additive_current_bps[] = {
      49'854'687'500,  // (49'629'375'000 + 50'080'000'000) / 2
      49'987'343'750,  // (49'854'687'500 + 50'120'000'000) / 2
      50'073'671'875,  // (49'987'343'750 + 50'160'000'000) / 2
      50'136'835'938,  // (50'073'671'875 + 50'200'000'000) / 2 = ...937.5, rounded up
      50'188'417'969,  // (50'136'835'938 + 50'240'000'000) / 2
  };
  for (int i = 0; i < 5; ++i) {
    OnBytesSent(config, s, 10'000'000, t + Time::FromUs(1));
    EXPECT_EQ(s.target_rate.bps(), additive_target_bps[i]);
    EXPECT_EQ(s.current_rate.bps(), additive_current_bps[i]);
  }

  // Both stages >= 5: hyper increase by i * R_HAI, i = min(stages) - F + 1.
  t += Time::FromUs(55);  // timer: stages (6, 5) -> i = 1
  OnTimer(config, s, t);
  EXPECT_EQ(s.target_rate.bps(), 50'640'000'000);
  EXPECT_EQ(s.current_rate.bps(), 50'414'208'985);  // (50'188'417'969 + 50'640'000'000) / 2 up
  OnBytesSent(config, s, 10'000'000, t);            // bytes: stages (7, 5) -> i = 1
  EXPECT_EQ(s.target_rate.bps(), 51'040'000'000);
  EXPECT_EQ(s.current_rate.bps(), 50'727'104'493);  // (50'414'208'985 + 51'040'000'000) / 2 up
  t += Time::FromUs(55);                            // timer: stages (7, 6) -> i = 2
  OnTimer(config, s, t);
  EXPECT_EQ(s.target_rate.bps(), 51'840'000'000);
  EXPECT_EQ(s.current_rate.bps(), 51'283'552'247);  // (50'727'104'493 + 51'840'000'000) / 2 up
}

// Alpha after k periods of K without a CNP is alpha_1 * (1 - g)^k. Computed here by repeated
// multiplication; the policy raises to a power, so the two may differ by a few ulps (1e-12).
TEST(DcqcnTest, AlphaDecaysOncePerPeriodWithoutCnp) {
  const DcqcnConfig config = MustCompile(DcqcnParams::Sigcomm2015());
  DcqcnState s = InitialState(config);
  const Time cnp_at = Time::FromUs(3);
  OnCnp(config, s, cnp_at);
  EXPECT_EQ(AlphaAt(config, s, cnp_at), 1.0);  // (1 - g) * 1 + g
  double want = 1.0;
  for (int k = 1; k <= 300; ++k) {
    const Time boundary = cnp_at + Time::FromUs(55) * k;
    EXPECT_NEAR(AlphaAt(config, s, boundary - Time::FromPs(1)), want, want * 1e-12) << k;
    want *= 255.0 / 256.0;
    EXPECT_NEAR(AlphaAt(config, s, boundary), want, want * 1e-12) << k;
  }
}

// The decayed alpha is what the next cut uses: R_C * (1 - alpha/2) with alpha = (255/256)^4.
TEST(DcqcnTest, CutUsesAlphaDecayedSinceLastCnp) {
  const DcqcnConfig config = MustCompile(DcqcnParams::Sigcomm2015());
  DcqcnState s = InitialState(config);
  OnCnp(config, s, Time::Zero());  // 50G, alpha 1
  // Four timer expiries (55..220 us) of fast recovery towards 100G: 75, 87.5, 93.75, 96.875G.
  const Time second_cnp = Time::FromUs(221);
  OnCnp(config, s, second_cnp);
  const double alpha = std::pow(255.0 / 256.0, 4);
  EXPECT_EQ(s.target_rate.bps(), 96'875'000'000);
  EXPECT_EQ(s.current_rate.bps(), static_cast<int64_t>(96'875'000'000.0 * (1 - alpha / 2)));
  EXPECT_NEAR(AlphaAt(config, s, second_cnp), (1 - 1.0 / 256) * alpha + 1.0 / 256, 1e-12);
}

// NVIDIA: one cut per 4 us monitor period; CNPs inside it coalesce into one cut at its end. No
// increase happened since the first cut, so R_T is not clamped (clamp_tgt_rate = 0).
TEST(DcqcnTest, NvidiaMonitorPeriodCoalescesCnps) {
  const DcqcnConfig config = MustCompile(DcqcnParams::NvidiaConnectX());
  DcqcnState s = InitialState(config);
  OnCnp(config, s, Time::Zero());
  // alpha_0 = 1023/1024: R_C = 100G * (1 - 1023/2048) = 100G * 1025/2048.
  EXPECT_EQ(s.current_rate.bps(), 50'048'828'125);
  for (int us = 1; us <= 3; ++us) OnCnp(config, s, Time::FromUs(us));
  EXPECT_EQ(s.current_rate.bps(), 50'048'828'125);  // no second cut inside the period
  EXPECT_EQ(NextTimerDue(s), Time::FromUs(4));

  // Alpha by hand: g = 5/1024, period 1 us, each CNP one period after the last.
  const double keep = 1019.0 / 1024.0;
  double alpha = 1023.0 / 1024.0;
  alpha = keep * alpha + 5.0 / 1024.0;  // CNP at 0
  for (int us = 1; us <= 3; ++us) alpha = keep * (alpha * keep) + 5.0 / 1024.0;
  alpha *= keep;  // the cut at 4 us is one period after the CNP at 3 us
  OnTimer(config, s, Time::FromUs(4));
  EXPECT_EQ(s.current_rate.bps(), static_cast<int64_t>(50'048'828'125.0 * (1 - alpha / 2)));
  EXPECT_EQ(s.target_rate.bps(), kLineBps);
  EXPECT_EQ(NextTimerDue(s), Time::FromUs(304));  // the cut restarted the 300 us timer
}

// clamp_tgt_rate_after_time_inc: after a timer increase, the next cut sets R_T := R_C.
TEST(DcqcnTest, NvidiaClampsTargetAfterTimerIncrease) {
  const DcqcnConfig config = MustCompile(DcqcnParams::NvidiaConnectX());
  DcqcnState s = InitialState(config);
  OnCnp(config, s, Time::Zero());
  OnTimer(config, s, Time::FromUs(300));  // F = 1: one fast-recovery step towards 100G
  const int64_t recovered_bps = 50'048'828'125 + (kLineBps - 50'048'828'125 + 1) / 2;
  EXPECT_EQ(s.current_rate.bps(), recovered_bps);
  OnCnp(config, s, Time::FromUs(301));
  EXPECT_EQ(s.target_rate.bps(), recovered_bps);
}

TEST(DcqcnTest, CnpStormNeverGoesBelowMinRate) {
  for (const DcqcnParams& params : {DcqcnParams::Sigcomm2015(), DcqcnParams::NvidiaConnectX()}) {
    const DcqcnConfig config = MustCompile(params);
    DcqcnState s = InitialState(config);
    Time t = Time::Zero();
    for (int i = 0; i < 10'000; ++i) {
      t += Time::FromNs(700);
      OnCnp(config, s, t);
      OnBytesSent(config, s, 4096, t);
      ASSERT_GE(s.current_rate.bps(), params.min_rate.bps()) << i;
      ASSERT_LE(s.current_rate, s.target_rate) << i;
      ASSERT_LE(s.target_rate.bps(), kLineBps) << i;
    }
    // Hundreds of cuts, each keeping at most 1025/2048 of the rate, would take 100G far below
    // the floor: the floor is where the storm must leave the QP.
    EXPECT_EQ(s.current_rate, params.min_rate);
  }
}

// Recovery with both counters running reaches the line rate exactly, never passes it, and then
// disarms the timer: an unthrottled QP costs the NIC no event.
TEST(DcqcnTest, RecoveryStopsAtLineRateAndDisarmsTimer) {
  for (const DcqcnParams& params : {DcqcnParams::Sigcomm2015(), DcqcnParams::NvidiaConnectX()}) {
    const DcqcnConfig config = MustCompile(params);
    DcqcnState s = InitialState(config);
    OnCnp(config, s, Time::Zero());
    OnCnp(config, s, Time::FromUs(100));
    Time t = Time::FromUs(100);
    int steps = 0;
    while (NextTimerDue(s) != Time::Infinite()) {
      ASSERT_LT(++steps, 1'000'000);
      t += Time::FromUs(1);
      OnBytesSent(config, s, params.byte_counter_bytes / 3 + 1, t);
      ASSERT_LE(s.current_rate, s.target_rate);
      ASSERT_LE(s.target_rate.bps(), kLineBps);
    }
    EXPECT_EQ(s.current_rate.bps(), kLineBps);
    OnBytesSent(config, s, params.byte_counter_bytes * 10, t);
    EXPECT_EQ(NextTimerDue(s), Time::Infinite());
  }
}

// A NIC that runs OnTimer late (or only when the QP next sends) gets the same state as one that
// runs it at every due time: expiries are replayed in order.
TEST(DcqcnTest, LateTimerReplaysMissedExpiries) {
  const DcqcnConfig config = MustCompile(DcqcnParams::Sigcomm2015());
  DcqcnState punctual = InitialState(config);
  OnCnp(config, punctual, Time::Zero());
  OnCnp(config, punctual, Time::FromUs(7));
  DcqcnState late = punctual;
  const Time until = Time::FromMs(3);
  while (NextTimerDue(punctual) <= until) OnTimer(config, punctual, NextTimerDue(punctual));
  OnTimer(config, late, until);
  EXPECT_EQ(late.current_rate, punctual.current_rate);
  EXPECT_EQ(late.target_rate, punctual.target_rate);
  EXPECT_EQ(late.timer_stage, punctual.timer_stage);
  EXPECT_EQ(late.next_increase, punctual.next_increase);
  EXPECT_EQ(late.timer_stage, (3000u - 7) / 55);  // one expiry per 55 us since the cut at 7 us
}

TEST(DcqcnTest, CompileNamesTheBadField) {
  struct Case {
    const char* field;
    void (*spoil)(DcqcnParams&);
  };
  const Case cases[] = {
      {"dcqcn.line_rate", [](DcqcnParams& p) { p.line_rate = Rate::FromBps(0); }},
      {"dcqcn.min_rate", [](DcqcnParams& p) { p.min_rate = Rate::FromGbps(200); }},
      {"dcqcn.g", [](DcqcnParams& p) { p.g = 0; }},
      {"dcqcn.initial_alpha", [](DcqcnParams& p) { p.initial_alpha = 1.5; }},
      {"dcqcn.alpha_update_period", [](DcqcnParams& p) { p.alpha_update_period = Time::Zero(); }},
      {"dcqcn.rate_reduce_monitor_period",
       [](DcqcnParams& p) { p.rate_reduce_monitor_period = Time::FromUs(-1); }},
      {"dcqcn.min_decrease_factor", [](DcqcnParams& p) { p.min_decrease_factor = 1; }},
      {"dcqcn.increase_timer_period",
       [](DcqcnParams& p) { p.increase_timer_period = Time::Zero(); }},
      {"dcqcn.byte_counter_bytes", [](DcqcnParams& p) { p.byte_counter_bytes = 0; }},
      {"dcqcn.additive_increase", [](DcqcnParams& p) { p.additive_increase = Rate::FromBps(-1); }},
      {"dcqcn.hyper_increase", [](DcqcnParams& p) { p.hyper_increase = Rate::FromBps(-1); }},
  };
  for (const Case& c : cases) {
    DcqcnParams params;
    c.spoil(params);
    StatusOr<DcqcnConfig> config = Compile(params);
    ASSERT_FALSE(config.ok()) << c.field;
    EXPECT_EQ(config.status().message().rfind(std::string(c.field) + ":", 0), 0u)
        << config.status().message();
  }
}

// The ranges of docs/scenario.md, checked on their edges: Check names the field by its enum, so
// a caller maps it to its own field without reading the text.
TEST(DcqcnTest, CheckNamesTheFieldJustOutsideItsRange) {
  struct Case {
    DcqcnField field;
    void (*outside)(DcqcnParams&);
    void (*inside)(DcqcnParams&);
  };
  const Case cases[] = {
      {DcqcnField::kG, [](DcqcnParams& p) { p.g = 1.000001; }, [](DcqcnParams& p) { p.g = 1; }},
      {DcqcnField::kG, [](DcqcnParams& p) { p.g = 0; }, [](DcqcnParams& p) { p.g = 1e-9; }},
      {DcqcnField::kInitialAlpha, [](DcqcnParams& p) { p.initial_alpha = -0.001; },
       [](DcqcnParams& p) { p.initial_alpha = 0; }},
      {DcqcnField::kMinDecreaseFactor, [](DcqcnParams& p) { p.min_decrease_factor = 1; },
       [](DcqcnParams& p) { p.min_decrease_factor = 0.999; }},
      {DcqcnField::kAlphaUpdatePeriod,
       [](DcqcnParams& p) { p.alpha_update_period = Time::FromNs(999); },
       [](DcqcnParams& p) { p.alpha_update_period = Time::FromNs(1000); }},
      {DcqcnField::kIncreaseTimerPeriod,
       [](DcqcnParams& p) { p.increase_timer_period = Time::FromNs(999); },
       [](DcqcnParams& p) { p.increase_timer_period = Time::FromNs(1000); }},
      {DcqcnField::kMinRate, [](DcqcnParams& p) { p.min_rate = Rate::FromBps(999'999); },
       [](DcqcnParams& p) { p.min_rate = Rate::FromMbps(1); }},
      {DcqcnField::kMinRate, [](DcqcnParams& p) { p.min_rate = Rate::FromBps(100 * kGbps + 1); },
       [](DcqcnParams& p) { p.min_rate = Rate::FromGbps(100); }},
      {DcqcnField::kByteCounterBytes, [](DcqcnParams& p) { p.byte_counter_bytes = 0; },
       [](DcqcnParams& p) { p.byte_counter_bytes = 1; }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(DcqcnFieldName(c.field));
    DcqcnParams outside;
    c.outside(outside);
    const std::vector<DcqcnError> errors = Check(outside);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].field, c.field);
    EXPECT_NE(errors[0].reason.find("got "), std::string::npos) << errors[0].reason;
    DcqcnParams inside;
    c.inside(inside);
    EXPECT_TRUE(Check(inside).empty());
    EXPECT_TRUE(Compile(inside).ok());
  }
}

TEST(DcqcnTest, NvidiaPresetCarriesTheFirmwareDefaults) {
  const DcqcnParams p = DcqcnParams::NvidiaConnectX();
  EXPECT_EQ(p.g, 5.0 / 1024);  // dce_tcp_g = 1019 of 1024
  EXPECT_EQ(p.initial_alpha, 1023.0 / 1024);
  EXPECT_EQ(p.alpha_update_period, Time::FromUs(1));
  EXPECT_EQ(p.rate_reduce_monitor_period, Time::FromUs(4));
  EXPECT_EQ(p.increase_timer_period, Time::FromUs(300));
  EXPECT_EQ(p.byte_counter_bytes, 32767);
  EXPECT_EQ(p.fast_recovery_steps, 1u);
  EXPECT_EQ(p.additive_increase.bps(), 5 * kMbps);
  EXPECT_EQ(p.hyper_increase.bps(), 50 * kMbps);
  EXPECT_EQ(p.min_rate.bps(), 1 * kMbps);
}

}  // namespace
}  // namespace fe::cong
