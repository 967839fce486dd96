#include "traffic/flow_size_cdf.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace fe {
namespace {

// The published tables, typed in here from the papers' generators rather than read back through
// the code under test. The test checks that the shipped files hold exactly these points.
const std::vector<std::pair<double, double>> kWebSearch = {
    {0, 0},       {10000, 15},   {20000, 20},   {30000, 30},   {50000, 40},    {80000, 53},
    {200000, 60}, {1000000, 70}, {2000000, 80}, {5000000, 90}, {10000000, 97}, {30000000, 100}};
const std::vector<std::pair<double, double>> kFbHadoop = {
    {0, 0},       {100, 1},     {200, 2},        {300, 5},      {350, 15},
    {400, 20},    {500, 30},    {600, 40},       {700, 50},     {1000, 60},
    {2000, 67},   {7000, 70},   {30000, 72},     {50000, 82},   {80000, 87},
    {120000, 90}, {300000, 95}, {1000000, 97.5}, {2000000, 99}, {10000000, 100}};

std::string DataFile(const std::string& name) {
  const char* root = std::getenv("FABRIC_EMU_ROOT");
  EXPECT_NE(root, nullptr) << "FABRIC_EMU_ROOT must point at the source tree (ctest sets it)";
  return std::string(root ? root : ".") + "/traffic/data/" + name;
}

FlowSizeCdf Load(const std::string& name) {
  auto cdf = FlowSizeCdf::FromFile(DataFile(name));
  EXPECT_TRUE(cdf.ok()) << cdf.status().message();
  return std::move(cdf).value();
}

// Mean of a non-negative variable as the integral of its survival function 1 - F(x), which for a
// piecewise-linear F starting at (0, 0) the trapezoid rule computes exactly. This is a different
// route from the code's sum of segment mid-points.
double SurvivalIntegral(const std::vector<std::pair<double, double>>& table) {
  double mean = 0;
  for (size_t i = 1; i < table.size(); ++i) {
    const double survival_a = 1 - table[i - 1].second / 100;
    const double survival_b = 1 - table[i].second / 100;
    mean += (table[i].first - table[i - 1].first) * (survival_a + survival_b) / 2;
  }
  return mean;
}

// E[X^2] of the piecewise-uniform distribution: a uniform on [a, b] has E[X^2] = (a^2+ab+b^2)/3.
double SecondMoment(const std::vector<std::pair<double, double>>& table) {
  double m2 = 0;
  for (size_t i = 1; i < table.size(); ++i) {
    const double a = table[i - 1].first, b = table[i].first;
    m2 += (table[i].second - table[i - 1].second) / 100 * (a * a + a * b + b * b) / 3;
  }
  return m2;
}

void ExpectPoints(const FlowSizeCdf& cdf, const std::vector<std::pair<double, double>>& table) {
  ASSERT_EQ(cdf.points().size(), table.size());
  for (size_t i = 0; i < table.size(); ++i) {
    EXPECT_EQ(cdf.points()[i].size_bytes, table[i].first) << i;
    EXPECT_EQ(cdf.points()[i].cumulative_percent, table[i].second) << i;
  }
}

TEST(FlowSizeCdfTest, ShippedFilesHoldThePublishedTables) {
  ExpectPoints(Load("websearch.cdf"), kWebSearch);
  ExpectPoints(Load("fb_hadoop.cdf"), kFbHadoop);
}

TEST(FlowSizeCdfTest, MeanMatchesSurvivalIntegralAndTheFileHeaders) {
  const double websearch = Load("websearch.cdf").MeanBytes();
  const double hadoop = Load("fb_hadoop.cdf").MeanBytes();
  // Two summation orders of the same sums of decimal numbers: agree to double rounding.
  EXPECT_NEAR(websearch, SurvivalIntegral(kWebSearch), 1e-9 * websearch);
  EXPECT_NEAR(hadoop, SurvivalIntegral(kFbHadoop), 1e-9 * hadoop);
  // The headers say "about 1.71 MB" and "about 120 KB": equal within half the last stated digit.
  EXPECT_NEAR(websearch, 1.71e6, 0.005e6);
  EXPECT_NEAR(hadoop, 120e3, 0.5e3);
}

void ExpectSamplesFollowTable(const FlowSizeCdf& cdf,
                              const std::vector<std::pair<double, double>>& table, uint64_t seed) {
  constexpr int kSamples = 400000;
  Random rng(seed);
  std::vector<uint64_t> at_or_below(table.size(), 0);
  double sum = 0;
  for (int i = 0; i < kSamples; ++i) {
    const uint64_t s = cdf.Sample(rng);
    sum += static_cast<double>(s);
    for (size_t k = 0; k < table.size(); ++k) at_or_below[k] += s <= table[k].first;
  }
  // Sample mean within 5 standard errors, with the standard deviation from the table itself.
  const double mean = SurvivalIntegral(table);
  const double sd = std::sqrt(SecondMoment(table) - mean * mean);
  EXPECT_NEAR(sum / kSamples, mean, 5 * sd / std::sqrt(kSamples));
  // The empirical CDF at every table point, binomial, 5 standard deviations. Samples are rounded
  // to whole bytes, so "s <= x" counts the draws below x + 0.5: compare with the table's
  // interpolation there.
  for (size_t k = 1; k < table.size(); ++k) {
    double p = table[k].second / 100;
    if (k + 1 < table.size()) {
      p += (table[k + 1].second - table[k].second) / 100 * 0.5 /
           (table[k + 1].first - table[k].first);
    }
    EXPECT_NEAR(static_cast<double>(at_or_below[k]) / kSamples, p,
                5 * std::sqrt(p * (1 - p) / kSamples))
        << table[k].first;
  }
}

TEST(FlowSizeCdfTest, WebSearchSamplesFollowTheTable) {
  ExpectSamplesFollowTable(Load("websearch.cdf"), kWebSearch, 1);
}

TEST(FlowSizeCdfTest, FbHadoopSamplesFollowTheTable) {
  ExpectSamplesFollowTable(Load("fb_hadoop.cdf"), kFbHadoop, 2);
}

TEST(FlowSizeCdfTest, PointMassesAndInterpolation) {
  // A single point: every flow has that size.
  auto constant = FlowSizeCdf::Parse("4096 100\n", "constant");
  ASSERT_TRUE(constant.ok()) << constant.status().message();
  EXPECT_EQ(constant->MeanBytes(), 4096);
  Random rng(4);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(constant->Sample(rng), 4096u);

  // Half the mass at 1000 (first point at 50%), half uniform on [1000, 3000]: mean 1500.
  auto mixed = FlowSizeCdf::Parse("1000 50\n3000 100\n", "mixed");
  ASSERT_TRUE(mixed.ok()) << mixed.status().message();
  EXPECT_DOUBLE_EQ(mixed->MeanBytes(), 0.5 * 1000 + 0.5 * 2000);
  int at_1000 = 0;
  constexpr int kSamples = 100000;
  for (int i = 0; i < kSamples; ++i) {
    const uint64_t s = mixed->Sample(rng);
    ASSERT_GE(s, 1000u);
    ASSERT_LE(s, 3000u);
    at_1000 += s == 1000;
  }
  // P(s == 1000) = 0.5 plus the uniform half rounding to 1000 (0.5 byte of its 2000): 0.500125.
  // Binomial, 5 standard deviations.
  EXPECT_NEAR(at_1000, kSamples * 0.500125, 5 * std::sqrt(kSamples * 0.25));
}

TEST(FlowSizeCdfTest, SizesNeverRoundToZero) {
  auto tiny = FlowSizeCdf::Parse("0 0\n1 100\n", "tiny");
  ASSERT_TRUE(tiny.ok());
  Random rng(5);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(tiny->Sample(rng), 1u);
}

TEST(FlowSizeCdfTest, SameSeedSameSizes) {
  const FlowSizeCdf cdf = Load("websearch.cdf");
  Random a(9), b(9);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(cdf.Sample(a), cdf.Sample(b));
}

TEST(FlowSizeCdfTest, CommentsAndBlankLinesAreSkipped) {
  auto cdf = FlowSizeCdf::Parse("# header\n\n  0 0  # origin\r\n\t10 100\n", "c");
  ASSERT_TRUE(cdf.ok()) << cdf.status().message();
  EXPECT_EQ(cdf->points().size(), 2u);
  EXPECT_DOUBLE_EQ(cdf->MeanBytes(), 5);
}

void ExpectError(std::string_view text, const std::string& where, const std::string& what) {
  auto cdf = FlowSizeCdf::Parse(text, "w.cdf");
  ASSERT_FALSE(cdf.ok()) << text;
  EXPECT_NE(cdf.status().message().find("w.cdf:" + where + ": "), std::string::npos)
      << cdf.status().message();
  EXPECT_NE(cdf.status().message().find(what), std::string::npos) << cdf.status().message();
}

TEST(FlowSizeCdfTest, RefusesBadFilesNamingTheLine) {
  ExpectError("# c\n0 0\n20 50\n10 100\n", "4", "size decreases");
  ExpectError("0 0\n10 60\n20 50\n30 100\n", "3", "percent decreases");
  ExpectError("0 0\n10 99.5\n", "2", "last cumulative percent must be 100");
  ExpectError("0 0\n10 150\n", "2", "within [0, 100]");
  ExpectError("-5 0\n10 100\n", "1", "size must be");
  ExpectError("0 0\n10 abc\n", "2", "expected");
  ExpectError("0 0 7\n10 100\n", "1", "expected");
  auto empty = FlowSizeCdf::Parse("# only a comment\n", "w.cdf");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().message(), "w.cdf: no points");
}

TEST(FlowSizeCdfTest, MissingFileIsAnError) {
  auto cdf = FlowSizeCdf::FromFile("no-such-dir/none.cdf");
  ASSERT_FALSE(cdf.ok());
  EXPECT_NE(cdf.status().message().find("no-such-dir/none.cdf"), std::string::npos);
}

TEST(FlowSizeCdfTest, FromPointsAppliesTheSameRules) {
  EXPECT_TRUE(FlowSizeCdf::FromPoints({{0, 0}, {10, 100}}).ok());
  EXPECT_FALSE(FlowSizeCdf::FromPoints({{10, 0}, {0, 100}}).ok());
  EXPECT_FALSE(FlowSizeCdf::FromPoints({}).ok());
}

}  // namespace
}  // namespace fe

namespace fe {
namespace {

// A CDF file is read only if it is a regular file within the cap, decided before reading: a
// sparse file one byte past the cap costs nothing to make and would cost its size to read.
TEST(FlowSizeCdfFileTest, RefusesAFileOverTheCapAndAFifo) {
  const std::string big = ::testing::TempDir() + "/big.cdf";
  { std::ofstream f(big); }
  std::filesystem::resize_file(big, static_cast<uintmax_t>(kMaxCdfFileBytes) + 1);
  const StatusOr<FlowSizeCdf> b = FlowSizeCdf::FromFile(big);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().message(), big + " has " + std::to_string(kMaxCdfFileBytes + 1) +
                                      " bytes, more than the 1 MiB a flow-size CDF file may have");
  std::filesystem::remove(big);

  const std::string fifo = ::testing::TempDir() + "/cdf.fifo";
  std::filesystem::remove(fifo);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const StatusOr<FlowSizeCdf> p = FlowSizeCdf::FromFile(fifo);
  std::filesystem::remove(fifo);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("no such regular file"), std::string::npos)
      << p.status().message();
}

}  // namespace
}  // namespace fe
