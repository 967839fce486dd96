// collectives.csv and the nccl-tests table from made-up outcomes: every figure follows from the
// times given.
#include "control/report/collectives_report.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "traffic/collective/collective.h"

namespace fe::control {
namespace {

// Two AllReduces of 8 MB over 4 ranks, 100 and 300 us long, then one that never completes.
struct Fixture {
  Workload w;
  std::vector<MessageOutcome> outcomes;
};

Fixture Make() {
  Fixture f;
  f.w.jobs.push_back(Job{.name = "dp", .kind = "collective"});
  CollectiveSpec spec;
  spec.ranks = {0, 1, 2, 3};
  spec.size_bytes = 8000000;
  std::vector<uint32_t> first_of_op;
  for (int i = 0; i < 3; ++i) {
    first_of_op.push_back(static_cast<uint32_t>(f.w.size()));
    EXPECT_TRUE(AppendCollective(spec, {}, Time::Zero(), Time::Zero(), 0, kNoIndex, &f.w).ok());
  }
  f.outcomes.resize(f.w.size());
  const Time begin[] = {Time::FromUs(1), Time::FromUs(200), Time::FromUs(600)};
  const Time length[] = {Time::FromUs(100), Time::FromUs(300), Time::Zero()};
  for (uint32_t id = 0; id < f.w.size(); ++id) {
    const uint32_t op = f.w.op_of[id];
    f.outcomes[id].started = begin[op];
    if (op < 2) f.outcomes[id].delivered = begin[op] + length[op];
  }
  return f;
}

TEST(CollectivesReportTest, CsvHasOneRowPerOperation) {
  const Fixture f = Make();
  const std::string csv = CollectivesCsv(f.w, MeasureCollectives(f.w, f.outcomes));
  // 8 MB in 100 us: 640 Gb/s; busbw x 2 x 3/4 = 960 Gb/s. In 300 us: a third of each.
  EXPECT_EQ(csv,
            "job,op,algorithm,bytes,ranks,channels,start_ns,end_ns,time_us,algbw_gbps,busbw_gbps\n"
            "dp,all_reduce,ring,8000000,4,1,1000.000,101000.000,100.000,640.000,960.000\n"
            "dp,all_reduce,ring,8000000,4,1,200000.000,500000.000,300.000,213.333,320.000\n"
            "dp,all_reduce,ring,8000000,4,1,600000.000,,,,\n");
}

// One row for the size: the mean time of the completed operations, 200 us; algbw 8 MB / 200 us
// = 40 GB/s, busbw 60 GB/s; count 2,000,000 floats.
TEST(CollectivesReportTest, TableFollowsNcclTests) {
  const Fixture f = Make();
  const std::string table = CollectivesTable(f.w, MeasureCollectives(f.w, f.outcomes));
  EXPECT_NE(table.find("# dp: all_reduce, ring, 4 ranks, 1 channels\n"), std::string::npos);
  EXPECT_NE(table.find("size         count      type   redop    root      time   algbw   busbw"),
            std::string::npos);
  EXPECT_NE(table.find("       8000000       2000000     float     sum      -1    200.00   40.00"
                       "   60.00\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("# Avg bus bandwidth    : 60\n"), std::string::npos) << table;
}

// A run stopped before any operation started: no start, no end, and no average bandwidth (0
// would pass for a measurement).
TEST(CollectivesReportTest, NothingStartedHasNoStartAndNoAverage) {
  Fixture f = Make();
  for (MessageOutcome& o : f.outcomes) o = MessageOutcome{};
  const std::vector<CollectiveMeasure> m = MeasureCollectives(f.w, f.outcomes);
  EXPECT_EQ(CollectivesCsv(f.w, m),
            "job,op,algorithm,bytes,ranks,channels,start_ns,end_ns,time_us,algbw_gbps,busbw_gbps\n"
            "dp,all_reduce,ring,8000000,4,1,,,,,\n"
            "dp,all_reduce,ring,8000000,4,1,,,,,\n"
            "dp,all_reduce,ring,8000000,4,1,,,,,\n");
  const std::string table = CollectivesTable(f.w, m);
  EXPECT_NE(table.find("      -1  not completed\n"), std::string::npos) << table;
  EXPECT_NE(table.find("# Avg bus bandwidth    : none\n"), std::string::npos) << table;
}

}  // namespace
}  // namespace fe::control
