#include "congestion/hpcc.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>

namespace fe::cong {
namespace {

// 100 Gb/s NIC and links, T = 10 us: W_init = 100e9 * 10e-6 / 8 = 125,000 bytes.
constexpr double kWinitBytes = 125'000;
constexpr double kWaiBytes = 500;
const Time kBaseRtt = Time::FromUs(10);
// Relative tolerance of window arithmetic: the policy works in doubles (INT time deltas are
// converted to seconds), so values agree with the hand computation to ~1e-15, not exactly.
constexpr double kRel = 1e-9;

HpccParams Params() {
  HpccParams p;
  p.base_rtt = kBaseRtt;
  p.w_ai_bytes = static_cast<int64_t>(kWaiBytes);
  return p;
}

HpccConfig MustCompile(const HpccParams& params) {
  StatusOr<HpccConfig> config = Compile(params);
  EXPECT_TRUE(config.ok()) << config.status().message();
  return config.ok() ? config.value() : HpccConfig{};
}

IntHop Hop(Time stamped_at, uint64_t tx_bytes, uint32_t queue_bytes) {
  return IntHop{tx_bytes, stamped_at, Rate::FromGbps(100), queue_bytes};
}

// Drives one QP over a single hop, one ACK per RTT, each ACK starting a new RTT.
class OneHopPath {
 public:
  explicit OneHopPath(const HpccConfig& config) : config_(config), state_(InitialState(config)) {
    Ack(0, 0);  // the first ACK only records the stack
  }
  // One RTT later the hop reports tx_bytes more transmitted and the given queue.
  void AckAfterRtt(uint64_t tx_bytes, uint32_t queue_bytes) {
    at_ += kBaseRtt;
    tx_ += tx_bytes;
    Ack(tx_, queue_bytes);
  }
  HpccState& state() { return state_; }

 private:
  void Ack(uint64_t tx_total, uint32_t queue_bytes) {
    const std::array<IntHop, 1> hops = {Hop(at_, tx_total, queue_bytes)};
    seq_ += 100;  // beyond the last snd_nxt (seq_ - 50): every ACK opens a new RTT
    OnAck(config_, state_, hops, seq_, seq_ + 50);
  }
  const HpccConfig& config_;
  HpccState state_;
  Time at_ = Time::Zero();
  uint64_t tx_ = 0;
  uint64_t seq_ = 0;
};

// u = qlen / (B T) + txRate / B. A queue of B*T/2 (62,500 B) seen in both samples and a link
// sending at B: u = 0.5 + 1 = 1.5; with tau = T the EWMA takes it whole.
TEST(HpccTest, UtilisationOfOneHopFollowsThePaper) {
  const HpccConfig config = MustCompile(Params());
  OneHopPath path(config);
  path.AckAfterRtt(125'000, 62'500);  // previous sample had queue 0: min(0, 62,500) = 0
  EXPECT_NEAR(path.state().utilization, 1.0, kRel);
  path.AckAfterRtt(125'000, 62'500);
  EXPECT_NEAR(path.state().utilization, 1.5, kRel);
}

// U is the largest u over the hops, smoothed with the tau of that hop: hop 0 at u = 0.8 over
// tau = T, hop 1 at u = 1.2 over tau = T/2: U = (1 - 1/2) * 1 + (1/2) * 1.2 = 1.1.
TEST(HpccTest, MostLoadedHopAndItsIntervalDriveTheEwma) {
  const HpccConfig config = MustCompile(Params());
  HpccState s = InitialState(config);
  const Rate b = Rate::FromGbps(100);
  const std::array<IntHop, 2> first = {IntHop{0, Time::Zero(), b, 0},
                                       IntHop{0, Time::Zero(), b, 0}};
  OnAck(config, s, first, 1, 2);
  const std::array<IntHop, 2> second = {IntHop{100'000, kBaseRtt, b, 0},         // 80 Gb/s
                                        IntHop{75'000, Time::FromUs(5), b, 0}};  // 120 Gb/s
  OnAck(config, s, second, 3, 4);
  EXPECT_NEAR(s.utilization, 1.1, kRel);
}

// With U held at 1.9 whatever the window (a queue of 0.9 B T that never drains, the link busy),
// the per-RTT map W -> W eta / U + W_AI has its fixed point at W_AI / (1 - eta/U) = 1,000 bytes.
// 40 contractions by eta/U = 1/2 leave nothing of the start; 1% covers the double arithmetic.
TEST(HpccTest, FixedUtilisationAboveEtaConvergesToFixedPoint) {
  const HpccConfig config = MustCompile(Params());
  OneHopPath path(config);
  for (int rtt = 0; rtt < 42; ++rtt) path.AckAfterRtt(125'000, 112'500);
  EXPECT_NEAR(path.state().utilization, 1.9, kRel);
  EXPECT_NEAR(path.state().window_bytes, kWaiBytes / (1 - 0.95 / 1.9), 1000 * 0.01);
}

// The same U on the first update: W = W_init * eta / U + W_AI = 62,500 + 500 bytes.
TEST(HpccTest, FirstUpdateFromInitialWindow) {
  const HpccConfig config = MustCompile(Params());
  HpccState s = InitialState(config);
  const Rate b = Rate::FromGbps(100);
  const std::array<IntHop, 1> first = {IntHop{0, Time::Zero(), b, 112'500}};
  OnAck(config, s, first, 1, 2);
  const std::array<IntHop, 1> second = {IntHop{125'000, kBaseRtt, b, 112'500}};
  OnAck(config, s, second, 3, 4);
  EXPECT_NEAR(s.utilization, 1.9, kRel);
  EXPECT_NEAR(s.window_bytes, kWinitBytes * 0.95 / 1.9 + kWaiBytes, kWinitBytes * kRel);
  EXPECT_EQ(s.rate.bps(), std::llround(100e9 * (63'000 / kWinitBytes)));
}

// A physical single bottleneck: the QP sends W per RTT and background traffic takes a fraction
// f of the link, so u = W/W_init + f with no queue. The fixed point x = W/W_init of
// x -> x eta / (x + f) + a (a = W_AI/W_init) solves x^2 + (f - eta - a) x - a f = 0; the window
// must settle there (within 1%, far wider than the ~1e-10 left after 60 contractions by 0.52).
TEST(HpccTest, SharedBottleneckWindowConvergesToAnalyticFixedPoint) {
  const HpccConfig config = MustCompile(Params());
  OneHopPath path(config);
  const double f = 0.5;
  const double a = kWaiBytes / kWinitBytes;
  const double x = ((0.95 + a - f) + std::sqrt((0.95 + a - f) * (0.95 + a - f) + 4 * a * f)) / 2;
  for (int rtt = 0; rtt < 60; ++rtt) {
    const double w = path.state().window_bytes;
    path.AckAfterRtt(static_cast<uint64_t>(w + f * kWinitBytes), 0);
  }
  EXPECT_NEAR(path.state().window_bytes, x * kWinitBytes, x * kWinitBytes * 0.01);
  EXPECT_GT(path.state().utilization, 0.95);  // the fixed point sits just above eta
}

// Below eta the window grows by W_AI per RTT for max_stage RTTs, then one multiplicative step
// W_c * eta / U + W_AI resets the stage.
TEST(HpccTest, AdditiveStagesThenMultiplicativeIncrease) {
  const HpccConfig config = MustCompile(Params());
  OneHopPath path(config);
  path.AckAfterRtt(125'000, 125'000);  // u = 1 (queue min with 0)
  path.AckAfterRtt(125'000, 125'000);  // u = 2
  HpccState& s = path.state();
  const double w_reduced = (kWinitBytes * 0.95 + kWaiBytes) * 0.95 / 2 + kWaiBytes;
  ASSERT_NEAR(s.reference_window_bytes, w_reduced, w_reduced * kRel);
  // Now the link runs at half rate with no queue: u = 0.5 < eta.
  for (uint32_t stage = 1; stage <= 5; ++stage) {
    path.AckAfterRtt(62'500, 0);
    const double want = w_reduced + stage * kWaiBytes;
    EXPECT_NEAR(s.reference_window_bytes, want, want * kRel) << stage;
    EXPECT_EQ(s.inc_stage, stage);
  }
  path.AckAfterRtt(62'500, 0);
  const double multiplied = (w_reduced + 5 * kWaiBytes) * 0.95 / 0.5 + kWaiBytes;
  EXPECT_NEAR(s.reference_window_bytes, multiplied, multiplied * kRel);
  EXPECT_EQ(s.inc_stage, 0u);
}

// ACKs inside an RTT react (W) from the same W_c but move neither W_c nor the stage.
TEST(HpccTest, AcksWithinAnRttDoNotCompound) {
  const HpccConfig config = MustCompile(Params());
  HpccState s = InitialState(config);
  const Rate b = Rate::FromGbps(100);
  const std::array<IntHop, 1> h0 = {IntHop{0, Time::Zero(), b, 0}};
  OnAck(config, s, h0, 1, 1000);
  const std::array<IntHop, 1> h1 = {IntHop{125'000, kBaseRtt, b, 0}};
  OnAck(config, s, h1, 1001, 2000);  // a new RTT at u = 1: W_c = 0.95 W_init + W_AI
  const double wc = s.reference_window_bytes;
  ASSERT_NEAR(wc, kWinitBytes * 0.95 + kWaiBytes, wc * kRel);
  const std::array<IntHop, 1> h2 = {IntHop{187'500, kBaseRtt * 2, b, 0}};
  OnAck(config, s, h2, 1500, 2100);  // 1500 <= 2000: same RTT, at u = 0.5 (additive branch)
  EXPECT_EQ(s.reference_window_bytes, wc);
  EXPECT_EQ(s.inc_stage, 0u);
  EXPECT_NEAR(s.window_bytes, wc + kWaiBytes, wc * kRel);
}

TEST(HpccTest, IdlePathKeepsLineRateExactly) {
  const HpccConfig config = MustCompile(Params());
  OneHopPath path(config);
  for (int rtt = 0; rtt < 20; ++rtt) path.AckAfterRtt(1'250, 0);  // u = 0.01
  EXPECT_EQ(path.state().window_bytes, kWinitBytes);
  EXPECT_EQ(path.state().rate.bps(), 100'000'000'000);
}

// A different hop count means a new path: the stack is re-recorded, nothing is inferred.
TEST(HpccTest, PathChangeRebaselines) {
  const HpccConfig config = MustCompile(Params());
  HpccState s = InitialState(config);
  const Rate b = Rate::FromGbps(100);
  const std::array<IntHop, 1> one = {IntHop{0, Time::Zero(), b, 0}};
  OnAck(config, s, one, 1, 2);
  const std::array<IntHop, 2> two = {IntHop{999'999, kBaseRtt, b, 100'000},
                                     IntHop{999'999, kBaseRtt, b, 100'000}};
  OnAck(config, s, two, 3, 4);
  EXPECT_EQ(s.window_bytes, kWinitBytes);
  EXPECT_EQ(s.utilization, 1.0);
  EXPECT_EQ(s.hop_count, 2u);
}

// W_AI derived as W_init (1 - eta) / N = 125,000 * 0.05 / 100 = 62.5 bytes.
TEST(HpccTest, DerivedAdditiveIncrease) {
  HpccParams p = Params();
  p.w_ai_bytes = 0;
  EXPECT_NEAR(MustCompile(p).w_ai_bytes, 62.5, 62.5 * kRel);
}

TEST(HpccTest, CompileNamesTheBadField) {
  struct Case {
    const char* field;
    void (*spoil)(HpccParams&);
  };
  const Case cases[] = {
      {"hpcc.line_rate", [](HpccParams& p) { p.line_rate = Rate::FromBps(0); }},
      {"hpcc.base_rtt", [](HpccParams& p) { p.base_rtt = Time::Zero(); }},
      {"hpcc.eta", [](HpccParams& p) { p.eta = 1.5; }},
      {"hpcc.w_ai_bytes", [](HpccParams& p) { p.w_ai_bytes = -1; }},
      {"hpcc.expected_flows",
       [](HpccParams& p) {
         p.w_ai_bytes = 0;
         p.expected_flows = 0;
       }},
      {"hpcc.min_rate", [](HpccParams& p) { p.min_rate = Rate::FromGbps(400); }},
  };
  for (const Case& c : cases) {
    HpccParams params = Params();
    c.spoil(params);
    StatusOr<HpccConfig> config = Compile(params);
    ASSERT_FALSE(config.ok()) << c.field;
    EXPECT_EQ(config.status().message().rfind(std::string(c.field) + ":", 0), 0u)
        << config.status().message();
  }
}

}  // namespace
}  // namespace fe::cong
