// The report's workload timeline for a run stopped early: an iteration or collective operation
// that never started (start_ns empty) has no bar and is counted under the figure, one that
// started but did not end is a faint bar to the run's end, and an end without a start is refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "control/report/html/report_sections.h"

namespace fe::control::html {
namespace {

class ReportWorkloadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    in_.dir = (std::filesystem::temp_directory_path() /
               ("report_workload_" + std::to_string(::getpid()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name()))
                  .string();
    std::filesystem::create_directories(in_.dir);
    in_.summary = Json::parse(R"({"simulated_time_ns": 1000000.0, "jobs": []})");
  }
  void TearDown() override { std::filesystem::remove_all(in_.dir); }

  void Write(const std::string& name, const std::string& contents) {
    std::ofstream(in_.Path(name), std::ios::binary) << contents;
  }

  ReportInput in_;
};

// As a run stopped at 1 ms during the first iteration's AllReduce writes them.
constexpr char kJobsCsv[] =
    "job,iteration,start_ns,end_ns,time_ns,compute_ns,communication_share,checkpoint\n"
    "t,0,0.000,,,900000.000,,false\n"
    "t,1,,,,950000.000,,false\n"
    "t,2,,,,950000.000,,false\n";
constexpr char kCollectivesCsv[] =
    "job,op,algorithm,bytes,ranks,channels,start_ns,end_ns,time_us,algbw_gbps,busbw_gbps\n"
    "t,all_reduce,ring,2097152,4,1,900000.000,,,,\n"
    "t,all_reduce,ring,2097152,4,1,,,,,\n"
    "t,all_reduce,ring,2097152,4,1,,,,,\n";

TEST_F(ReportWorkloadTest, WhatNeverStartedHasNoBarAndIsCounted) {
  Write("jobs.csv", kJobsCsv);
  Write("collectives.csv", kCollectivesCsv);
  StatusOr<Section> s = WorkloadSection(in_);
  ASSERT_TRUE(s.ok()) << s.status().message();
  // Two bars, both faint and drawn to the run's end: iteration 0 and the first operation.
  EXPECT_NE(s->body.find("data-start=\"0\" data-end=\"1000000\""), std::string::npos) << s->body;
  EXPECT_NE(s->body.find("data-start=\"900000\" data-end=\"1000000\""), std::string::npos);
  size_t bars = 0;
  for (size_t at = 0; (at = s->body.find("data-start=", at)) != std::string::npos; ++at) ++bars;
  EXPECT_EQ(bars, 2u);
  EXPECT_NE(s->body.find("Not started when the run ended, so not drawn: 2 iterations (jobs.csv) "
                         "and 2 collective operations (collectives.csv)."),
            std::string::npos)
      << s->body;
}

TEST_F(ReportWorkloadTest, AnEndWithoutAStartIsRefused) {
  Write("jobs.csv",
        "job,iteration,start_ns,end_ns,time_ns,compute_ns,communication_share,checkpoint\n"
        "t,0,,5.000,,1.000,,false\n");
  StatusOr<Section> s = WorkloadSection(in_);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(
      s.status().message().ends_with("jobs.csv:2: column 'end_ns' has a value but 'start_ns' none"))
      << s.status().message();
}

}  // namespace
}  // namespace fe::control::html
