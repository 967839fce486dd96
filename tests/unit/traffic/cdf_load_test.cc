#include "traffic/cdf_load.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/random.h"

namespace fe {
namespace {

// A small two-segment CDF whose moments are easy by hand: 40% uniform on [0, 1000], 60% uniform
// on [1000, 5000]. Mean = 0.4 * 500 + 0.6 * 3000 = 2000 bytes.
// E[X^2] = 0.4 * (0 + 0 + 1e6) / 3 + 0.6 * (1e6 + 5e6 + 25e6) / 3 = 133333.3 + 6.2e6.
constexpr double kMeanBytes = 2000;
constexpr double kSecondMomentBytes2 = 0.4 * 1e6 / 3 + 0.6 * 31e6 / 3;

FlowSizeCdf TestCdf() {
  auto cdf = FlowSizeCdf::Parse("0 0\n1000 40\n5000 100\n", "test");
  EXPECT_TRUE(cdf.ok()) << cdf.status().message();
  return std::move(cdf).value();
}

CdfLoadParams Params() {
  CdfLoadParams p;
  p.host_link_rates.assign(16, Rate::FromGbps(100));
  p.load = 0.5;
  p.start = Time::FromUs(10);
  p.duration = Time::FromUs(1000);
  p.seed = 1;
  return p;
}

// Per host: 0.5 * 100e9 b/s / (8 * 2000 B) = 3.125e6 flows/s, so over 1 ms 3125 flows per host
// and 50,000 in all.
constexpr double kPerHostPerSecond = 0.5 * 100e9 / (8 * kMeanBytes);

TEST(CdfLoadTest, ArrivalRateFollowsLoadAndMeanSize) {
  EXPECT_DOUBLE_EQ(CdfLoadArrivalsPerSecond(0.5, Rate::FromGbps(100), TestCdf()),
                   kPerHostPerSecond);
}

TEST(CdfLoadTest, FlowsAreWellFormedAndOrderedInTime) {
  const CdfLoadParams p = Params();
  auto flows = MakeCdfLoad(p, TestCdf());
  ASSERT_TRUE(flows.ok()) << flows.status().message();
  ASSERT_FALSE(flows->empty());
  for (size_t i = 0; i < flows->size(); ++i) {
    const Flow& f = (*flows)[i];
    EXPECT_EQ(f.id, i);
    ASSERT_LT(f.src_host, p.host_link_rates.size());
    ASSERT_LT(f.dst_host, p.host_link_rates.size());
    ASSERT_NE(f.src_host, f.dst_host);
    ASSERT_GE(f.size_bytes, 1u);
    ASSERT_LE(f.size_bytes, 5000u);
    ASSERT_GE(f.start, p.start);
    ASSERT_LT(f.start, p.start + p.duration);
    if (i > 0) {
      ASSERT_GE(f.start, (*flows)[i - 1].start);
    }
  }
}

TEST(CdfLoadTest, CountsAndBytesMatchThePoissonProcess) {
  const CdfLoadParams p = Params();
  auto flows = MakeCdfLoad(p, TestCdf());
  ASSERT_TRUE(flows.ok());
  const double per_host = kPerHostPerSecond * p.duration.seconds();
  const double total = per_host * static_cast<double>(p.host_link_rates.size());

  // A Poisson count has variance equal to its mean: 5 standard deviations.
  EXPECT_NEAR(static_cast<double>(flows->size()), total, 5 * std::sqrt(total));
  const size_t hosts = p.host_link_rates.size();
  std::vector<int> sent(hosts, 0), received(hosts, 0);
  double bytes = 0;
  for (const Flow& f : *flows) {
    ++sent[f.src_host];
    ++received[f.dst_host];
    bytes += static_cast<double>(f.size_bytes);
  }
  for (size_t h = 0; h < p.host_link_rates.size(); ++h) {
    EXPECT_NEAR(sent[h], per_host, 5 * std::sqrt(per_host)) << h;
    // Each arrival picks one of the 15 other hosts: host h receives a thinned Poisson process of
    // the same mean (15 senders x 1/15 each).
    EXPECT_NEAR(received[h], per_host, 5 * std::sqrt(per_host)) << h;
  }
  // Offered bytes: a compound Poisson sum, mean N E[X] and variance N E[X^2]. Its mean is the
  // load: 0.5 x 100 Gb/s x 1 ms x 16 hosts / 8.
  EXPECT_DOUBLE_EQ(total * kMeanBytes, 0.5 * 100e9 * 1e-3 * 16 / 8);
  EXPECT_NEAR(bytes, total * kMeanBytes, 5 * std::sqrt(total * kSecondMomentBytes2));
}

TEST(CdfLoadTest, ArrivalsHavePoissonDispersion) {
  // Counts in 1,000 windows of 1 us each (mean 50): for a Poisson process the index of
  // dispersion sum (c - m)^2 / m is chi-square with 999 degrees of freedom (mean 999, standard
  // deviation sqrt(2 x 999) = 44.7). Periodic or bursty arrivals would land far outside 5 sigma.
  const CdfLoadParams p = Params();
  auto flows = MakeCdfLoad(p, TestCdf());
  ASSERT_TRUE(flows.ok());
  constexpr int kWindows = 1000;
  std::vector<int> count(kWindows, 0);
  for (const Flow& f : *flows) ++count[(f.start - p.start).ps() / Time::FromUs(1).ps()];
  const double mean = static_cast<double>(flows->size()) / kWindows;
  double dispersion = 0;
  for (int c : count) dispersion += (c - mean) * (c - mean) / mean;
  EXPECT_NEAR(dispersion, kWindows - 1, 5 * std::sqrt(2.0 * (kWindows - 1)));
}

TEST(CdfLoadTest, FlowCountBoundStopsExactly) {
  CdfLoadParams p = Params();
  p.duration = Time::Zero();
  p.max_flows = 777;
  auto flows = MakeCdfLoad(p, TestCdf());
  ASSERT_TRUE(flows.ok());
  EXPECT_EQ(flows->size(), 777u);
  // The first bound reached wins: 1 us holds about 50 flows, far fewer than 777.
  p.duration = Time::FromUs(1);
  flows = MakeCdfLoad(p, TestCdf());
  ASSERT_TRUE(flows.ok());
  EXPECT_LT(flows->size(), 777u);
}

// At a load of 1e-300 the mean gap between arrivals is about 1e294 s, far past what a Time
// holds: the first gap already lies beyond the 1 ms window, so no flow arrives in it.
TEST(CdfLoadTest, AGapBeyondTheTimeRangeEndsTheLoad) {
  CdfLoadParams p = Params();
  p.load = 1e-300;
  auto flows = MakeCdfLoad(p, TestCdf());
  ASSERT_TRUE(flows.ok()) << flows.status().message();
  EXPECT_TRUE(flows->empty());
}

TEST(CdfLoadTest, SameSeedSameFlowsDifferentSeedDifferentFlows) {
  CdfLoadParams p = Params();
  p.duration = Time::FromUs(20);
  auto a = MakeCdfLoad(p, TestCdf());
  auto b = MakeCdfLoad(p, TestCdf());
  p.seed = 2;
  auto c = MakeCdfLoad(p, TestCdf());
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(*a, *b);
  EXPECT_NE(*a, *c);
}

TEST(CdfLoadTest, RefusesParametersWithoutAMeaning) {
  const FlowSizeCdf cdf = TestCdf();
  CdfLoadParams p = Params();
  p.host_link_rates.resize(1);
  EXPECT_FALSE(MakeCdfLoad(p, cdf).ok());
  p = Params();
  p.load = 0;
  EXPECT_FALSE(MakeCdfLoad(p, cdf).ok());
  p.load = 1.5;
  EXPECT_FALSE(MakeCdfLoad(p, cdf).ok());
  p.load = std::nan("");
  EXPECT_FALSE(MakeCdfLoad(p, cdf).ok());
  p = Params();
  p.host_link_rates[3] = Rate::FromBps(0);
  EXPECT_FALSE(MakeCdfLoad(p, cdf).ok());
  p = Params();
  p.duration = Time::Zero();
  p.max_flows = 0;
  EXPECT_FALSE(MakeCdfLoad(p, cdf).ok());
  p.duration = Time::FromNs(-1);
  EXPECT_FALSE(MakeCdfLoad(p, cdf).ok());
}

// Each host offers its load on its own link: half the hosts at 400 Gb/s open 4 times the flows of
// the others at 100 Gb/s, and every host's offered bytes are load x its own rate x duration.
TEST(CdfLoadTest, EachHostOffersItsLoadOnItsOwnLinkRate) {
  CdfLoadParams p = Params();
  for (size_t h = 0; h < p.host_link_rates.size(); h += 2)
    p.host_link_rates[h] = Rate::FromGbps(400);
  auto flows = MakeCdfLoad(p, TestCdf());
  ASSERT_TRUE(flows.ok()) << flows.status().message();
  std::vector<int> sent(p.host_link_rates.size(), 0);
  for (const Flow& f : *flows) ++sent[f.src_host];
  for (size_t h = 0; h < sent.size(); ++h) {
    // Poisson counts: mean load x rate x duration / (8 x mean size), 5 standard deviations.
    const double mean =
        CdfLoadArrivalsPerSecond(p.load, p.host_link_rates[h], TestCdf()) * p.duration.seconds();
    EXPECT_DOUBLE_EQ(mean, (h % 2 == 0 ? 4 : 1) * kPerHostPerSecond * 1e-3) << h;
    EXPECT_NEAR(sent[h], mean, 5 * std::sqrt(mean)) << h;
  }
}

// With one rate on every link the choice of source is the uniform draw of old: the same flows
// as a load over the same hosts always gave (so existing runs keep their flows).
TEST(CdfLoadTest, OneRateDrawsSourcesUniformly) {
  CdfLoadParams p = Params();
  p.duration = Time::FromUs(5);
  auto flows = MakeCdfLoad(p, TestCdf());
  ASSERT_TRUE(flows.ok());
  // The generator's own draws, replayed: gap, source, destination, size.
  Random rng(p.seed);
  const double per_ps =
      16 * CdfLoadArrivalsPerSecond(p.load, Rate::FromGbps(100), TestCdf()) * 1e-12;
  Time t = p.start;
  for (const Flow& f : *flows) {
    t += Time::FromPs(std::llround(-std::log(1 - rng.NextUnitDouble()) / per_ps));
    EXPECT_EQ(f.start, t);
    const auto src = static_cast<uint32_t>(rng.NextBelow(16));
    auto dst = static_cast<uint32_t>(rng.NextBelow(15));
    if (dst >= src) ++dst;
    EXPECT_EQ(f.src_host, src);
    EXPECT_EQ(f.dst_host, dst);
    EXPECT_EQ(f.size_bytes, TestCdf().Sample(rng));
  }
}

}  // namespace
}  // namespace fe
