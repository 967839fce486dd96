#include "congestion/wred.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "core/random.h"

namespace fe::cong {
namespace {

constexpr int64_t kKmin = 100'000;
constexpr int64_t kKmax = 400'000;
constexpr double kPmax = 0.2;
constexpr int kDraws = 200'000;
constexpr uint32_t kMaxU32 = std::numeric_limits<uint32_t>::max();

WredConfig Band() {
  const StatusOr<WredConfig> config =
      Compile(WredParams{.kmin_bytes = kKmin, .kmax_bytes = kKmax, .pmax = kPmax});
  EXPECT_TRUE(config.ok()) << config.status().message();
  return config.value();
}

// The RED curve, written from its definition rather than from the fixed-point code.
double RedProbability(int64_t q) {
  return kPmax * static_cast<double>(q - kKmin) / static_cast<double>(kKmax - kKmin);
}

uint32_t Draw(Random& rng) { return static_cast<uint32_t>(rng.NextU64() >> 32); }

// At a held queue length each decision is an independent Bernoulli(p) trial, so the count of hits
// in N draws is Binomial(N, p). Five standard deviations bound a false alarm below 6e-7 per
// check; at N = 200,000 the band is at most 0.5 percentage points of p wide.
TEST(WredTest, MarkedFractionInTheBandFollowsTheLinearCurve) {
  const WredConfig config = Band();
  Random rng(7);
  for (const int64_t q :
       {kKmin + 1'000, int64_t{130'000}, int64_t{250'000}, int64_t{399'000}, kKmax}) {
    const double p = RedProbability(q);
    int marks = 0;
    int drops_lossy = 0;
    for (int i = 0; i < kDraws; ++i) {
      marks +=
          WredDecide(config, q, /*ect=*/true, /*lossless=*/false, Draw(rng)) == WredVerdict::kMark;
      drops_lossy +=
          WredDecide(config, q, /*ect=*/false, /*lossless=*/false, Draw(rng)) == WredVerdict::kDrop;
    }
    const double sigma = std::sqrt(kDraws * p * (1 - p));
    EXPECT_NEAR(marks, kDraws * p, 5 * sigma) << "q = " << q;
    // A non-ECT packet on a lossy queue meets the same curve, as a drop (RED).
    EXPECT_NEAR(drops_lossy, kDraws * p, 5 * sigma) << "q = " << q;
  }
}

// The fixed-point probability against the formula: a hit is random < p * 2^32, so the verdict
// must flip within one unit of p * 2^32 computed in floating point.
TEST(WredTest, HitThresholdIsPTimesTwoToThe32) {
  const WredConfig config = Band();
  for (const int64_t q : {int64_t{100'001}, int64_t{175'123}, int64_t{333'333}, kKmax}) {
    const double threshold = RedProbability(q) * 0x1p32;
    const auto below = static_cast<uint32_t>(std::floor(threshold) - 1);
    const auto above = static_cast<uint32_t>(std::ceil(threshold) + 1);
    EXPECT_EQ(WredDecide(config, q, true, false, below), WredVerdict::kMark) << q;
    EXPECT_EQ(WredDecide(config, q, true, false, above), WredVerdict::kEnqueue) << q;
  }
}

TEST(WredTest, NothingHappensAtOrBelowKmin) {
  const WredConfig config = Band();
  Random rng(11);
  for (const int64_t q : {int64_t{0}, int64_t{50'000}, kKmin}) {
    // random = 0 is the draw most likely to hit: even it must not.
    EXPECT_EQ(WredDecide(config, q, true, false, 0), WredVerdict::kEnqueue);
    EXPECT_EQ(WredDecide(config, q, false, false, 0), WredVerdict::kEnqueue);
    for (int i = 0; i < 10'000; ++i) {
      ASSERT_EQ(WredDecide(config, q, true, false, Draw(rng)), WredVerdict::kEnqueue);
    }
  }
}

TEST(WredTest, AboveKmaxEveryEctPacketIsMarkedAndLossyNonEctDropped) {
  const WredConfig config = Band();
  for (const int64_t q : {kKmax + 1, int64_t{1'000'000}}) {
    // random = 2^32 - 1 is the draw least likely to hit: even it must.
    EXPECT_EQ(WredDecide(config, q, true, false, kMaxU32), WredVerdict::kMark);
    EXPECT_EQ(WredDecide(config, q, true, true, kMaxU32), WredVerdict::kMark);
    EXPECT_EQ(WredDecide(config, q, false, false, kMaxU32), WredVerdict::kDrop);
    EXPECT_EQ(WredDecide(config, q, false, true, 0), WredVerdict::kEnqueue);
  }
}

TEST(WredTest, NonEctIsNeverMarkedAndNeverDroppedWhenLossless) {
  const WredConfig config = Band();
  Random rng(13);
  for (int64_t q = 0; q <= 2 * kKmax; q += 1'000) {
    for (int i = 0; i < 100; ++i) {
      const uint32_t r = Draw(rng);
      EXPECT_NE(WredDecide(config, q, false, false, r), WredVerdict::kMark);
      EXPECT_EQ(WredDecide(config, q, false, true, r), WredVerdict::kEnqueue);
    }
  }
}

// kmin = kmax = K is DCTCP-style step marking: mark exactly when q exceeds K.
TEST(WredTest, EqualThresholdsMarkAboveTheStepOnly) {
  const StatusOr<WredConfig> config =
      Compile(WredParams{.kmin_bytes = 50'000, .kmax_bytes = 50'000, .pmax = 1.0});
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(WredDecide(config.value(), 50'000, true, false, 0), WredVerdict::kEnqueue);
  EXPECT_EQ(WredDecide(config.value(), 50'001, true, false, kMaxU32), WredVerdict::kMark);
}

TEST(WredTest, DisabledNeverMarksNorDrops) {
  const StatusOr<WredConfig> config = Compile(WredParams{.enabled = false});
  ASSERT_TRUE(config.ok());
  for (const int64_t q : {int64_t{0}, kKmax + 1, std::numeric_limits<int64_t>::max()}) {
    EXPECT_EQ(WredDecide(config.value(), q, true, false, 0), WredVerdict::kEnqueue);
    EXPECT_EQ(WredDecide(config.value(), q, false, false, 0), WredVerdict::kEnqueue);
  }
}

TEST(WredTest, RefusesBadParametersNamingTheField) {
  EXPECT_EQ(Compile(WredParams{.kmin_bytes = 200'000, .kmax_bytes = 100'000}).status().message(),
            "kmin_bytes (200000) > kmax_bytes (100000)");
  EXPECT_EQ(Compile(WredParams{.kmin_bytes = -1}).status().message(), "kmin_bytes (-1) < 0");
  for (const double pmax : {-0.1, 1.5, std::nan("")}) {
    const StatusOr<WredConfig> config = Compile(WredParams{.pmax = pmax});
    ASSERT_FALSE(config.ok()) << pmax;
    EXPECT_NE(config.status().message().find("pmax"), std::string::npos);
    EXPECT_NE(config.status().message().find("outside [0, 1]"), std::string::npos);
  }
  EXPECT_TRUE(Compile(WredParams{.pmax = 0.0}).ok());
  EXPECT_TRUE(Compile(WredParams{.pmax = 1.0}).ok());
}

}  // namespace
}  // namespace fe::cong
