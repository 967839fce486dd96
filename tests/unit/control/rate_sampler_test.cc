// The rate sampler reads the message table on a fixed grid of virtual time: which flows it
// samples (started, not completed), what it reads, when it stops, and the CSV it writes.
#include "control/report/rate_sampler.h"

#include <gtest/gtest.h>

#include <string>

#include "control/scenario/scenario_loader.h"

namespace fe::control {
namespace {

// A message that started (its start event ran) at `start`.
void AddMessage(dp::MessageTable& messages, Time start, Time completed, Rate dcqcn_rate) {
  const uint32_t id = messages.Add(dp::MessageInfo{dp::MessageSpec{0, 1, 1000, start}});
  messages.sender[id].started_at = start;
  messages.sender[id].completed_at = completed;
  messages.sender[id].dcqcn.current_rate = dcqcn_rate;
}

TEST(RateSamplerTest, SamplesSendingFlowsEveryIntervalAndStopsWhenAllCompleted) {
  Scheduler sched;
  // Flow 0 sends during [0, 25) us, flow 1 during [10, 32) us; samples every 10 us from 10 us.
  dp::MessageTable messages;
  AddMessage(messages, Time::Zero(), Time::FromUs(25), Rate::FromGbps(40));
  AddMessage(messages, Time::FromUs(10), Time::FromUs(32), Rate::FromGbps(7));
  RateSampler sampler(&sched, &messages, dp::CongestionControl::kDcqcn, nullptr, Time::FromUs(10));
  sampler.Start();
  // The sampler reads completion as it stands when it runs, so mark the completions as unknown
  // until their time by running in steps.
  const Time completed0 = messages.sender[0].completed_at,
             completed1 = messages.sender[1].completed_at;
  messages.sender[0].completed_at = messages.sender[1].completed_at = Time::Infinite();
  sched.RunUntil(Time::FromUs(25));
  messages.sender[0].completed_at = completed0;
  sched.RunUntil(Time::FromUs(32));
  messages.sender[1].completed_at = completed1;
  sched.RunUntil(Time::Infinite());

  // 10 us: flow 0 only (flow 1 starts at that very instant, sampled from the next one on);
  // 20 us: both; 30 us: flow 1; 40 us: nothing left to sample, and no further event.
  const std::vector<RateSample>& s = sampler.samples();
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].at, Time::FromUs(10));
  EXPECT_EQ(s[0].flow, 0u);
  EXPECT_EQ(s[0].rate, Rate::FromGbps(40));
  EXPECT_EQ(s[1].at, Time::FromUs(20));
  EXPECT_EQ(s[1].flow, 0u);
  EXPECT_EQ(s[2].at, Time::FromUs(20));
  EXPECT_EQ(s[2].flow, 1u);
  EXPECT_EQ(s[2].rate, Rate::FromGbps(7));
  EXPECT_EQ(s[3].at, Time::FromUs(30));
  EXPECT_EQ(s[3].flow, 1u);
  EXPECT_TRUE(sched.empty());
  EXPECT_EQ(sched.Now(), Time::FromUs(40));
}

TEST(RateSamplerTest, WithoutCongestionControlAFlowRunsAtLineRate) {
  Scheduler sched;
  dp::MessageTable messages;
  AddMessage(messages, Time::Zero(), Time::Infinite(), Rate::FromGbps(1));
  RateSampler sampler(
      &sched, &messages, dp::CongestionControl::kNone, [](uint32_t) { return Rate::FromGbps(100); },
      Time::FromUs(1));
  sampler.Start();
  sched.RunUntil(Time::FromUs(3));
  ASSERT_EQ(sampler.samples().size(), 3u);
  for (const RateSample& s : sampler.samples()) EXPECT_EQ(s.rate, Rate::FromGbps(100));
}

TEST(RateSamplerTest, CsvHasOneRowPerSampleInNanoseconds) {
  const RateSample samples[] = {{Time::FromPs(1'500), 3, Rate::FromBps(12'500'000'000)},
                                {Time::FromUs(2), 4, Rate::FromMbps(1)}};
  EXPECT_EQ(RatesCsv(samples),
            "time_ns,flow,rate_bps\n"
            "1.500,3,12500000000\n"
            "2000.000,4,1000000\n");
}

// The scenario fields that turn the samplers on (rates.csv, queues.csv): 0 (off) and whole
// nanoseconds load; a fraction of a nanosecond is refused on its line, naming the field.
TEST(RateSamplerTest, SampleIntervalsAreZeroOrAtLeastOneNanosecond) {
  const std::string head = "topology { fat_tree { k: 4 } }\n";
  for (const std::string field : {"rate_sample_interval_ns", "queue_sample_interval_ns"}) {
    SCOPED_TRACE(field);
    EXPECT_TRUE(LoadScenarioText(head + "run { " + field + ": 0 }", "r.textproto").ok());
    EXPECT_TRUE(LoadScenarioText(head + "run { " + field + ": 1 }", "r.textproto").ok());
    const auto bad = LoadScenarioText(head + "run {\n  " + field + ": 0.5\n}", "r.textproto");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.status().message(),
              "r.textproto:3: run." + field + ": must be 0 (off) or in [1, 1e+15] ns, got 0.5");
    EXPECT_FALSE(LoadScenarioText(head + "run { " + field + ": -1000 }", "r.textproto").ok());
  }
  EXPECT_TRUE(
      LoadScenarioText(head + "nic { cc { hpcc {} } } run { rate_sample_interval_ns: 1000 }",
                       "r.textproto")
          .ok());
}

TEST(RateSamplerTest, UnderHpccAFlowRunsAtItsWindowRate) {
  Scheduler sched;
  dp::MessageTable messages;
  AddMessage(messages, Time::Zero(), Time::Infinite(), Rate::FromGbps(1));
  dp::HpccTable hpcc(1);
  hpcc[0].state.rate = Rate::FromGbps(37);
  RateSampler sampler(&sched, &messages, dp::CongestionControl::kHpcc, nullptr, Time::FromUs(1),
                      RateSources{nullptr, &hpcc});
  sampler.Start();
  sched.RunUntil(Time::FromUs(2));
  ASSERT_EQ(sampler.samples().size(), 2u);
  for (const RateSample& s : sampler.samples()) EXPECT_EQ(s.rate, Rate::FromGbps(37));
}

TEST(RateSamplerTest, DcqcnSamplesIncludeIncreasesTheNicHasNotAppliedYet) {
  // A QP cut to 50 Gb/s at t = 0 (target 100 Gb/s) whose state was last advanced then: by
  // 60 us the paper preset's 55 us timer has expired once, a fast-recovery step to
  // (50 + 100) / 2 = 75 Gb/s, which the sample must show though the table still says 50.
  auto config = cong::Compile(cong::DcqcnParams::Sigcomm2015());
  ASSERT_TRUE(config.ok());
  cong::DcqcnState state = cong::InitialState(*config);
  cong::OnCnp(*config, state, Time::Zero());
  ASSERT_EQ(state.current_rate, Rate::FromGbps(50));
  Scheduler sched;
  dp::MessageTable messages;
  AddMessage(messages, Time::Zero(), Time::Infinite(), Rate::FromGbps(50));
  messages.sender[0].dcqcn = state;
  RateSampler sampler(&sched, &messages, dp::CongestionControl::kDcqcn, nullptr, Time::FromUs(60),
                      RateSources{&*config, nullptr});
  sampler.Start();
  sched.RunUntil(Time::FromUs(60));
  ASSERT_EQ(sampler.samples().size(), 1u);
  EXPECT_EQ(sampler.samples()[0].rate, Rate::FromGbps(75));
}

}  // namespace
}  // namespace fe::control
