#include "congestion/ecmp_hash.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/random.h"

namespace fe::cong {
namespace {

struct Tuple {
  uint32_t src_ip, dst_ip;
  uint16_t src_port, dst_port;
};

constexpr uint16_t kRoceUdpPort = 4791;

std::vector<Tuple> RandomTuples(int count) {
  Random rng(20240601);
  std::vector<Tuple> out(count);
  for (Tuple& t : out) {
    const uint64_t r = rng.NextU64();
    t = {static_cast<uint32_t>(r), static_cast<uint32_t>(r >> 32),
         static_cast<uint16_t>(rng.NextU64()), static_cast<uint16_t>(rng.NextU64())};
  }
  return out;
}

// What a fabric really hashes: consecutive host addresses, one RoCEv2 destination port, and
// source ports that differ only in their low bits (one per queue pair).
std::vector<Tuple> FabricTuples() {
  std::vector<Tuple> out;
  for (uint32_t src = 0; src < 64; ++src) {
    for (uint32_t dst = 0; dst < 64; ++dst) {
      for (uint16_t qp = 0; qp < 64; ++qp) {
        out.push_back(
            {0xC6120001 + src, 0xC6120001 + dst, static_cast<uint16_t>(0xC000 + qp), kRoceUdpPort});
      }
    }
  }
  return out;
}

// Each member's count is Binomial(N, 1/n) for an ideal hash; 5 standard deviations leave a
// false alarm probability below 6e-7 per member. At N = 262,144 the band is at most 0.49% of N,
// so a member whose share is off by half a percentage point fails.
void ExpectUniform(const std::vector<Tuple>& tuples, uint16_t n, uint32_t seed) {
  std::vector<int64_t> count(n, 0);
  for (const Tuple& t : tuples) {
    const uint16_t m =
        PickEcmpMember(EcmpHash(t.src_ip, t.dst_ip, t.src_port, t.dst_port, seed), n);
    ASSERT_LT(m, n);
    ++count[m];
  }
  const double total = static_cast<double>(tuples.size());
  const double p = 1.0 / n;
  const double sigma = std::sqrt(total * p * (1 - p));
  for (uint16_t m = 0; m < n; ++m) {
    EXPECT_LE(std::abs(count[m] - total * p), 5 * sigma) << "n=" << n << " member " << m;
  }
}

TEST(EcmpHashTest, MembersAreEquallyLikelyOnRandomTuples) {
  const std::vector<Tuple> tuples = RandomTuples(1 << 18);
  for (uint16_t n : {2, 4, 8, 3}) ExpectUniform(tuples, n, 7);
}

TEST(EcmpHashTest, MembersAreEquallyLikelyOnFabricTuples) {
  const std::vector<Tuple> tuples = FabricTuples();
  for (uint16_t n : {2, 4, 8, 3}) ExpectUniform(tuples, n, 7);
}

// Multiply-shift boundaries from arithmetic: member m of n starts at hash ceil(m * 2^32 / n).
// For n = 3: 2^32 / 3 = 1431655765.33 and 2 * 2^32 / 3 = 2863311530.67.
TEST(EcmpHashTest, PickSplitsTheHashSpaceIntoEqualRanges) {
  EXPECT_EQ(PickEcmpMember(0, 3), 0);
  EXPECT_EQ(PickEcmpMember(1431655765u, 3), 0);
  EXPECT_EQ(PickEcmpMember(1431655766u, 3), 1);
  EXPECT_EQ(PickEcmpMember(2863311530u, 3), 1);
  EXPECT_EQ(PickEcmpMember(2863311531u, 3), 2);
  EXPECT_EQ(PickEcmpMember(UINT32_MAX, 3), 2);
  EXPECT_EQ(PickEcmpMember(UINT32_MAX, 1), 0);
  EXPECT_EQ(PickEcmpMember(0x7fffffffu, 2), 0);
  EXPECT_EQ(PickEcmpMember(0x80000000u, 2), 1);
}

// Avalanche: flipping any one of the 128 input bits must flip each of the 32 output bits with
// probability 1/2. With 4,096 trials per input bit the observed rate has sigma = 1/128; a
// 5-sigma band (+-0.039) over 4,096 (input, output) bit pairs leaves an ideal hash a ~0.2%
// chance of one false alarm, while a weak mix (an output bit that ignores an input) sits at 0.
TEST(EcmpHashTest, EveryInputBitAffectsEveryOutputBit) {
  constexpr int kTrials = 4096;
  const std::vector<Tuple> tuples = RandomTuples(kTrials);
  Random rng(99);
  std::vector<uint32_t> seeds(kTrials);
  for (uint32_t& s : seeds) s = static_cast<uint32_t>(rng.NextU64());
  for (int bit = 0; bit < 128; ++bit) {
    int flips[32] = {};
    for (int i = 0; i < kTrials; ++i) {
      Tuple t = tuples[i];
      uint32_t seed = seeds[i];
      const uint32_t before = EcmpHash(t.src_ip, t.dst_ip, t.src_port, t.dst_port, seed);
      if (bit < 32) {
        t.src_ip ^= 1u << bit;
      } else if (bit < 64) {
        t.dst_ip ^= 1u << (bit - 32);
      } else if (bit < 80) {
        t.src_port ^= static_cast<uint16_t>(1u << (bit - 64));
      } else if (bit < 96) {
        t.dst_port ^= static_cast<uint16_t>(1u << (bit - 80));
      } else {
        seed ^= 1u << (bit - 96);
      }
      const uint32_t diff = before ^ EcmpHash(t.src_ip, t.dst_ip, t.src_port, t.dst_port, seed);
      for (int out = 0; out < 32; ++out) flips[out] += (diff >> out) & 1;
    }
    for (int out = 0; out < 32; ++out) {
      EXPECT_NEAR(flips[out] / static_cast<double>(kTrials), 0.5, 5.0 / 128)
          << "input bit " << bit << " output bit " << out;
    }
  }
}

// Pearson's chi-square of the joint choice of two switches over a 4 x 4 table; independence
// means 15 degrees of freedom, whose upper tail beyond 57.0 has probability 8e-7.
double JointChiSquare(const std::vector<Tuple>& tuples, uint32_t seed_a, uint32_t seed_b) {
  constexpr uint16_t kN = 4;
  double count[kN][kN] = {};
  for (const Tuple& t : tuples) {
    const uint16_t a =
        PickEcmpMember(EcmpHash(t.src_ip, t.dst_ip, t.src_port, t.dst_port, seed_a), kN);
    const uint16_t b =
        PickEcmpMember(EcmpHash(t.src_ip, t.dst_ip, t.src_port, t.dst_port, seed_b), kN);
    ++count[a][b];
  }
  const double expected = static_cast<double>(tuples.size()) / (kN * kN);
  double chi2 = 0;
  for (const auto& row : count) {
    for (double c : row) chi2 += (c - expected) * (c - expected) / expected;
  }
  return chi2;
}

TEST(EcmpHashTest, SwitchesWithDifferentSeedsChooseIndependently) {
  const std::vector<Tuple> tuples = FabricTuples();
  // Neighbouring seeds are the hard case: they differ in one low bit.
  for (uint32_t seed : {0u, 1u, 2u, 1000u}) {
    EXPECT_LT(JointChiSquare(tuples, seed, seed + 1), 57.0) << "seeds " << seed;
  }
  // The same seed at both hops is polarisation: the joint table is its diagonal, and the test
  // above would see a chi-square of 3 * N.
  EXPECT_GT(JointChiSquare(tuples, 5, 5), 1000.0);
}

}  // namespace
}  // namespace fe::cong
