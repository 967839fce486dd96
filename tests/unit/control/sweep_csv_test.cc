// The headline results of a summary.json and sweep.csv's rows: each figure as summary.json
// writes it, the sums over switch queues and the goodput worked out by hand below.
#include "control/sweep/sweep_csv.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "control/sweep/headline_results.h"
#include "control/sweep/sweep_table.h"

namespace fe::control {
namespace {

// A summary.json cut to the fields the headline reads; two queues, a training job and a job
// without iterations.
const char kSummary[] = R"({
  "flows_total": 16, "flows_completed": 15,
  "fct_ns": {"p50": 1234.5, "p95": 2000.0, "p99": 2500.25, "max": 3000.0},
  "slowdown": {"count": 15, "p50": 1.5, "p95": 2.0, "p99": 2.75, "max": 3.0},
  "jobs": [{"name": "perm"},
           {"name": "train", "iterations": {"count": 2, "completed": 2,
            "time_ns": {"p50": 100.5, "p99": 200.0, "max": 200.0}}}],
  "bytes_delivered": 1000,
  "retransmissions": {"packets": 3},
  "cnps": {"sent": 7, "received": 7},
  "drops": {"packets": 2, "by_reason": {}},
  "switch_queues": [
    {"max_depth_bytes": 4000, "ecn_marks": 5, "pause_frames_sent": 1},
    {"max_depth_bytes": 9000, "ecn_marks": 6, "pause_frames_sent": 0}],
  "simulated_time_ns": 400.0
})";

std::string Get(const std::vector<HeadlineValue>& h, const std::string& name) {
  for (const HeadlineValue& v : h) {
    if (v.name == name) return v.text;
  }
  return "<missing " + name + ">";
}

TEST(SweepCsvTest, HeadlineTakesSummaryFiguresAndSumsTheQueues) {
  StatusOr<std::vector<HeadlineValue>> h = ReadHeadline(kSummary);
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_EQ(Get(*h, "flows_completed"), "15");
  EXPECT_EQ(Get(*h, "flows_total"), "16");
  EXPECT_EQ(Get(*h, "fct_p50_ns"), "1234.5");
  EXPECT_EQ(Get(*h, "fct_p99_ns"), "2500.25");
  EXPECT_EQ(Get(*h, "slowdown_p99"), "2.75");
  EXPECT_EQ(Get(*h, "simulated_time_ns"), "400.0");
  EXPECT_EQ(Get(*h, "goodput_gbps"), "20.0");  // 1000 bytes x 8 bits / 400 ns
  EXPECT_EQ(Get(*h, "ecn_marks"), "11");       // 5 + 6
  EXPECT_EQ(Get(*h, "pause_frames"), "1");
  EXPECT_EQ(Get(*h, "max_queue_bytes"), "9000");
  EXPECT_EQ(Get(*h, "drops"), "2");
  EXPECT_EQ(Get(*h, "cnps"), "7");
  EXPECT_EQ(Get(*h, "retransmitted_packets"), "3");
  EXPECT_EQ(Get(*h, "job.train.iteration_p50_ns"), "100.5");
  EXPECT_EQ(Get(*h, "job.train.iteration_p99_ns"), "200.0");
  EXPECT_EQ(h->size(), 17u);  // 15 fixed columns and the training job's two; none for "perm"
}

// A point stopped before any iteration completed: summary.json's iteration times are null, so
// the point has no figure for them and its sweep.csv cells stay empty, as for FCT.
TEST(SweepCsvTest, NullIterationTimesGiveNoFigure) {
  std::string summary = kSummary;
  const std::string times = R"("time_ns": {"p50": 100.5, "p99": 200.0, "max": 200.0})";
  summary.replace(summary.find(times), times.size(),
                  R"("time_ns": {"p50": null, "p99": null, "max": null})");
  StatusOr<std::vector<HeadlineValue>> h = ReadHeadline(summary);
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_EQ(Get(*h, "job.train.iteration_p50_ns"), "<missing job.train.iteration_p50_ns>");
  EXPECT_EQ(Get(*h, "job.train.iteration_p99_ns"), "<missing job.train.iteration_p99_ns>");
  EXPECT_EQ(h->size(), 15u);

  StatusOr<std::vector<HeadlineValue>> full = ReadHeadline(kSummary);
  ASSERT_TRUE(full.ok());
  SweepPoint a;
  a.name = "point-000";
  SweepPoint b = a;
  b.index = 1;
  b.name = "point-001";
  std::vector<PointRecord> records(2);
  records[0].point = &a;
  records[0].status = PointStatus::kOk;
  records[0].headline = *full;
  records[1].point = &b;
  records[1].status = PointStatus::kOk;
  records[1].headline = *h;
  const std::string csv = SweepCsv({}, records);
  // The second row's last two figures, the iteration times, are empty.
  const std::string second = csv.substr(csv.rfind('\n', csv.size() - 2) + 1);
  EXPECT_TRUE(second.ends_with(",9000,,,point-001,ok\n")) << csv;
}

TEST(SweepCsvTest, AnythingElseIsRefusedWithAReason) {
  for (const char* bad : {"", "{", "[]", R"({"flows_completed": "many"})"}) {
    const StatusOr<std::vector<HeadlineValue>> h = ReadHeadline(bad);
    ASSERT_FALSE(h.ok()) << bad;
    EXPECT_TRUE(h.status().message().starts_with("not a summary.json this version writes"));
  }
}

TEST(SweepCsvTest, OneRowPerPointWithEmptyFiguresWhereNoRunFinished) {
  std::vector<SweepAxis> axes(1);
  axes[0].path = "traffic[0].job";
  axes[0].label = "job";
  SweepPoint a;
  a.index = 0;
  a.values = {"\"x,y\""};
  a.name = "point-000-job=x_y";
  SweepPoint b = a;
  b.index = 1;
  b.name = "point-001-job=z";
  b.values = {"z"};
  std::vector<PointRecord> records(2);
  records[0].point = &a;
  records[0].status = PointStatus::kOk;
  records[0].headline = {{"fct_p99_ns", "2500.25", 2500.25}, {"drops", "2", 2}};
  records[1].point = &b;
  records[1].status = PointStatus::kNotRun;
  EXPECT_EQ(SweepCsv(axes, records),
            "point,traffic[0].job,fct_p99_ns,drops,dir,status\n"
            "0,\"\"\"x,y\"\"\",2500.25,2,point-000-job=x_y,ok\n"
            "1,z,,,point-001-job=z,not run\n");
}

TEST(SweepCsvTest, TerminalTableAlignsTheHeadlineInMicroseconds) {
  std::vector<SweepAxis> axes(1);
  axes[0].path = "topology.fat_tree.link_rate_gbps";
  axes[0].label = "link_rate_gbps";
  SweepPoint a;
  a.values = {"400"};
  SweepPoint b;
  b.index = 1;
  b.values = {"1600"};
  std::vector<PointRecord> records(2);
  records[0].point = &a;
  records[0].status = PointStatus::kOk;
  StatusOr<std::vector<HeadlineValue>> h = ReadHeadline(kSummary);
  ASSERT_TRUE(h.ok());
  records[0].headline = *h;
  records[1].point = &b;
  records[1].status = PointStatus::kInterrupted;
  // kSummary: 15 of 16 flows, FCT p99 2500.25 ns, slowdown p99 2.75, 400 ns, 20 Gb/s, 2 drops.
  EXPECT_EQ(SweepTable(axes, records),
            "  point  link_rate_gbps  flows  FCT p99 us  slowdown p99  makespan us  goodput Gb/s  "
            "drops  status\n"
            "  0      400             15/16  2.500       2.750         0.400        20.0          "
            "2      ok\n"
            "  1      1600            -      -           -             -            -             "
            "-      interrupted\n");
}

}  // namespace
}  // namespace fe::control
