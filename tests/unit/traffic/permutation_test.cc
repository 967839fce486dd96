#include "traffic/permutation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <vector>

namespace fe {
namespace {

std::vector<uint32_t> Destinations(const std::vector<Flow>& flows) {
  std::vector<uint32_t> dst;
  for (const Flow& f : flows) dst.push_back(f.dst_host);
  return dst;
}

TEST(PermutationTest, IsADerangementForManySeedsAndSizes) {
  for (uint32_t n : {2u, 3u, 5u, 16u, 128u, 1024u}) {
    for (uint64_t seed = 0; seed < 50; ++seed) {
      const std::vector<Flow> flows = MakePermutation(n, 4096, Time::FromNs(7), seed);
      ASSERT_EQ(flows.size(), n);
      std::vector<int> received(n, 0);
      for (uint32_t i = 0; i < n; ++i) {
        EXPECT_EQ(flows[i].id, i);
        EXPECT_EQ(flows[i].src_host, i);
        EXPECT_NE(flows[i].dst_host, i);
        ASSERT_LT(flows[i].dst_host, n);
        EXPECT_EQ(flows[i].size_bytes, 4096u);
        EXPECT_EQ(flows[i].start, Time::FromNs(7));
        ++received[flows[i].dst_host];
      }
      EXPECT_TRUE(std::all_of(received.begin(), received.end(), [](int c) { return c == 1; }))
          << "n=" << n << " seed=" << seed;
    }
  }
}

TEST(PermutationTest, FewerThanTwoHostsGiveNoFlows) {
  EXPECT_TRUE(MakePermutation(0, 1, Time::Zero(), 1).empty());
  EXPECT_TRUE(MakePermutation(1, 1, Time::Zero(), 1).empty());
}

TEST(PermutationTest, SameSeedSameFlowsDifferentSeedsDifferentFlows) {
  EXPECT_EQ(MakePermutation(64, 1000, Time::Zero(), 5), MakePermutation(64, 1000, Time::Zero(), 5));
  // 64 hosts have about 64!/e = 4.7e88 derangements: a collision among 100 seeds of a correct
  // generator has negligible probability.
  std::vector<std::vector<uint32_t>> seen;
  for (uint64_t seed = 0; seed < 100; ++seed) {
    seen.push_back(Destinations(MakePermutation(64, 1000, Time::Zero(), seed)));
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end());
}

TEST(PermutationTest, AllNineDerangementsOfFourHostsAreEquallyLikely) {
  // Enumerate the derangements of 4 independently: there are !4 = 9. Sattolo's algorithm would
  // reach only the 6 four-cycles and miss the 3 pairs of swaps, so this test tells them apart.
  std::map<std::vector<uint32_t>, int> count;
  std::vector<uint32_t> p(4);
  std::iota(p.begin(), p.end(), 0u);
  do {
    bool fixed_point = false;
    for (uint32_t i = 0; i < 4; ++i) fixed_point = fixed_point || p[i] == i;
    if (!fixed_point) count[p] = 0;
  } while (std::next_permutation(p.begin(), p.end()));
  ASSERT_EQ(count.size(), 9u);

  constexpr int kSeeds = 90000;
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    auto it = count.find(Destinations(MakePermutation(4, 1, Time::Zero(), seed)));
    ASSERT_NE(it, count.end()) << "not a derangement, seed " << seed;
    ++it->second;
  }
  // Each count is binomial(90000, 1/9): mean 10000, sigma = sqrt(90000 * 1/9 * 8/9) = 94.3.
  const double mean = kSeeds / 9.0;
  const double sigma = std::sqrt(kSeeds * (1.0 / 9) * (8.0 / 9));
  for (const auto& [perm, c] : count) EXPECT_NEAR(c, mean, 5 * sigma);
}

}  // namespace
}  // namespace fe
