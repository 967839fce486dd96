#include "congestion/cnp_pacer.h"

#include <gtest/gtest.h>

#include <vector>

namespace fe::cong {
namespace {

CnpPacerConfig MustCompile(const CnpPacerParams& params) {
  StatusOr<CnpPacerConfig> config = Compile(params);
  EXPECT_TRUE(config.ok()) << config.status().message();
  return config.ok() ? config.value() : CnpPacerConfig{};
}

// CE marks at 0, 1, ..., last_us microseconds; returns the mark times (us) that got a CNP.
std::vector<int> CnpTimesUs(const CnpPacerConfig& config, int last_us) {
  CnpPacerState state;
  std::vector<int> sent;
  for (int us = 0; us <= last_us; ++us) {
    if (ShouldSendCnp(config, state, Time::FromUs(us))) sent.push_back(us);
  }
  return sent;
}

// Marks every 1 us during [0, 200 us) with N = 50 us: the first mark is answered at once and
// then one every 50 us, at 0, 50, 100 and 150 us: 4 CNPs. A mark exactly 50 us after a CNP is
// answered, so extending the marks to t = 200 us adds a fifth.
TEST(CnpPacerTest, FiftyMicrosecondIntervalOverTwoHundredMicroseconds) {
  const CnpPacerConfig config = MustCompile(CnpPacerParams::Sigcomm2015());
  EXPECT_EQ(CnpTimesUs(config, 199), (std::vector<int>{0, 50, 100, 150}));
  EXPECT_EQ(CnpTimesUs(config, 200), (std::vector<int>{0, 50, 100, 150, 200}));
}

// The 4 us variant: 200 us of marks every 1 us give 200 / 4 = 50 CNPs, at multiples of 4 us.
TEST(CnpPacerTest, FourMicrosecondVariant) {
  const CnpPacerConfig config = MustCompile(CnpPacerParams::NvidiaConnectX());
  const std::vector<int> sent = CnpTimesUs(config, 199);
  ASSERT_EQ(sent.size(), 50u);
  for (size_t i = 0; i < sent.size(); ++i) EXPECT_EQ(sent[i], static_cast<int>(4 * i));
}

// The interval runs from the last CNP, not on a fixed grid: a mark after a quiet spell is
// answered at once, and the next one a full interval later.
TEST(CnpPacerTest, QuietQpAnswersAtOnce) {
  const CnpPacerConfig config = MustCompile(CnpPacerParams::Sigcomm2015());
  CnpPacerState state;
  EXPECT_TRUE(ShouldSendCnp(config, state, Time::FromUs(7)));
  EXPECT_TRUE(ShouldSendCnp(config, state, Time::FromUs(1000)));
  EXPECT_FALSE(ShouldSendCnp(config, state, Time::FromUs(1049)));
  EXPECT_TRUE(ShouldSendCnp(config, state, Time::FromUs(1050)));
}

TEST(CnpPacerTest, ZeroIntervalAnswersEveryMark) {
  const CnpPacerConfig config = MustCompile(CnpPacerParams{Time::Zero()});
  CnpPacerState state;
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(ShouldSendCnp(config, state, Time::FromNs(3)));
}

TEST(CnpPacerTest, CompileRefusesNegativeIntervalNamingTheField) {
  StatusOr<CnpPacerConfig> config = Compile(CnpPacerParams{Time::FromUs(-1)});
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.status().message().rfind("cnp_pacer.min_interval:", 0), 0u)
      << config.status().message();
}

}  // namespace
}  // namespace fe::cong
