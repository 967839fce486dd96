// The console's job and kv lines: the figures when something completed, "none" when nothing did
// (a percentile of nothing printed as 0 would read as instant).
#include "control/report/workload_lines.h"

#include <gtest/gtest.h>

namespace fe::control {
namespace {

TEST(WorkloadLinesTest, AJobWithCompletedIterationsGivesTimesAndShare) {
  JobTiming job;
  job.iterations.resize(3);
  job.completed = 2;
  job.time = IterationTimeQuantiles{Time::FromNs(1500), Time::FromNs(2500), Time::FromNs(2500)};
  job.communication_share = 0.25;
  EXPECT_EQ(JobLine("train", job),
            "  job       train: 2 of 3 iterations, time p50 1.500 us, p99 2.500 us; "
            "communication 25.0%\n");
}

TEST(WorkloadLinesTest, AJobWithNoCompletedIterationHasNoFigures) {
  JobTiming job;
  job.iterations.resize(3);
  EXPECT_EQ(JobLine("train", job),
            "  job       train: 0 of 3 iterations, time none: no iteration completed\n");
}

TEST(WorkloadLinesTest, KvRequestsGiveTransferPercentilesOrNone) {
  KvJobSummary kv;
  kv.requests = 4;
  kv.kv_bytes = 8000;
  kv.reused_bytes = 2000;
  EXPECT_EQ(KvLine("serve", kv),
            "  kv        serve: 0 of 4 requests, transfer none: no request completed; 2000 of "
            "8000 KV bytes reused\n");
  kv.completed = 4;
  kv.transfer =
      KvQuantiles<Time>{Time::FromUs(3), Time::FromUs(7), Time::FromUs(7), Time::FromUs(7)};
  EXPECT_EQ(KvLine("serve", kv),
            "  kv        serve: 4 of 4 requests, transfer p50 3.000 us, p99 7.000 us; 2000 of "
            "8000 KV bytes reused\n");
}

}  // namespace
}  // namespace fe::control
