// Training iterations end to end in virtual time, against closed forms and physical bounds.
//
// The fabric: hosts on one switch (a leaf whose spine nothing uses), 100 Gb/s links of 1 us, so
// nothing but the host links limits a ring. A ring AllReduce of S bytes over N ranks takes
//   T_ring = 2(N-1) x [ (S/N) / (B x 4096/4264) + 2 x 1 us + F / B ]
// (tests/scenario/collective_test.cc derives it: each step moves a slice at the payload share of
// the link, data frames of F = 4,180 wire bytes with one 84-byte ACK each, then the step's last
// packet crosses two links and one store-and-forward).
//
// Data parallel only, no overlap: an iteration is its compute (forward, backward, and from the
// second on the optimizer step) then the AllReduce, so its time is compute + T_ring. Asserted
// within 1 % of T_ring: the ring's own tolerance (ACK placement, the ranks' last deliveries a
// fraction of a microsecond apart); the compute is exact.
//
// With 8 buckets, overlapped or not: the buckets share each rank's link, so communication takes
// at least C = 8 x 2(N-1)(S/N) / (B x 4096/4264), and an iteration at least max(compute, C): the
// physical bound. Overlapped it is strictly shorter than serial, which adds the whole backward.
//
// A checkpoint: R ranks write W bytes each to 2 storage hosts; the storage hosts receive R x W
// bytes exactly, and the burst (first write's start to last delivery) takes at least R x W over
// the storage hosts' ingress capacity, 2 x B x 4096/4180 (data frames only: the ACKs go out).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "control/report/jobs_csv.h"
#include "control/run/report_writer.h"
#include "control/scenario/scenario_loader.h"
#include "dataplane/packet.h"
#include "dataplane/roce_headers.h"
#include "flows_csv.h"
#include "scenario_run.h"
#include "source_root.h"
#include "traffic/job_metrics.h"
#include "traffic/message_outcomes.h"

namespace fe::control {
namespace {

constexpr double kRateGbps = 100;
constexpr double kDelayNs = 1000;
constexpr uint32_t kMtu = 4096;
constexpr uint64_t kBucketBytes = 2 << 20;  // S/N = 512 KiB over 4 ranks: one chunk per step

double DataWireBytes() { return dp::WireBytesOfFrame(dp::RoceFrameBytes(kMtu)); }
double AckWireBytes() { return dp::WireBytesOfFrame(dp::RoceFrameBytes(0) + dp::kAethBytes); }
double PayloadShareGbps() { return kRateGbps * kMtu / (DataWireBytes() + AckWireBytes()); }

// `hosts` hosts under one leaf.
std::string Star(int hosts) {
  return "topology { link_class { name: \"l\" rate_gbps: 100 delay_ns: 1000 }\n"
         " clos { host_link_class: \"l\"\n"
         "  tier { switches: 1 down_links: " +
         std::to_string(hosts) +
         " up_links: 1 uplink_class: \"l\" }\n"
         "  tier { switches: 1 down_links: 1 } } }\n"
         "run { progress: false }\n";
}

struct TrainingRun {
  fe::testing::ScenarioRun run;
  std::vector<MessageOutcome> outcomes;
  std::vector<JobTiming> jobs;
};

TrainingRun RunText(const std::string& text, uint64_t seed = 1) {
  TrainingRun r{fe::testing::RunScenarioText(text, "training.textproto", seed), {}, {}};
  const Emulation& e = *r.run.run.emulation;
  r.outcomes = OutcomesOf(e.fabric->messages());
  r.jobs = JobTimings(e.workload, r.outcomes);
  for (uint32_t id = 0; id < e.workload.size(); ++id) {
    EXPECT_NE(e.workload.iteration_of[id], kNoIndex) << id;
    for (const uint32_t d : e.workload.dependencies(id)) {
      EXPECT_GE(r.outcomes[id].started, r.outcomes[d].delivered + e.workload.delay[id]) << id;
    }
  }
  return r;
}

double Ns(Time t) { return static_cast<double>(t.ps()) * 1e-3; }

std::string DataParallel(int buckets, bool overlap) {
  return Star(4) +
         "traffic { training { host: [0, 1, 2, 3] data_parallel: 4 iterations: 3\n"
         "  gradient_buckets: " +
         std::to_string(buckets) + " bucket_bytes: " + std::to_string(kBucketBytes) +
         " overlap: " + (overlap ? "true" : "false") +
         "\n  forward { mean_ns: 300000 } backward { mean_ns: 600000 }"
         " optimizer { mean_ns: 50000 } } }\n";
}

TEST(TrainingScenarioTest, WithoutOverlapAnIterationIsComputeThenTheRingAllReduce) {
  const TrainingRun r = RunText(DataParallel(1, false));
  ASSERT_EQ(r.jobs.size(), 1u);
  const uint32_t n = 4;
  const double slice_ns = static_cast<double>(kBucketBytes / n) * 8 / PayloadShareGbps();
  const double ring_ns = 2 * (n - 1) * (slice_ns + 2 * kDelayNs + DataWireBytes() * 8 / kRateGbps);
  ASSERT_EQ(r.jobs[0].iterations.size(), 3u);
  for (const IterationTiming& t : r.jobs[0].iterations) {
    ASSERT_TRUE(t.completed);
    const double compute_ns = t.index == 0 ? 900e3 : 950e3;
    EXPECT_DOUBLE_EQ(Ns(t.compute), compute_ns);
    EXPECT_NEAR(Ns(t.time()), compute_ns + ring_ns, 0.01 * ring_ns) << "iteration " << t.index;
    EXPECT_NEAR(t.communication_share(), ring_ns / (compute_ns + ring_ns), 0.01);
  }
}

TEST(TrainingScenarioTest, OverlapIsFasterButNotFasterThanEitherPart) {
  const TrainingRun serial = RunText(DataParallel(8, false));
  const TrainingRun overlapped = RunText(DataParallel(8, true));
  const uint32_t n = 4;
  const double communication_ns =
      8 * 2.0 * (n - 1) * static_cast<double>(kBucketBytes / n) * 8 / PayloadShareGbps();
  for (uint32_t k = 0; k < 3; ++k) {
    const IterationTiming& a = serial.jobs[0].iterations[k];
    const IterationTiming& b = overlapped.jobs[0].iterations[k];
    ASSERT_TRUE(a.completed && b.completed);
    EXPECT_LT(b.time(), a.time()) << "iteration " << k;
    EXPECT_GE(Ns(b.time()), std::max(Ns(b.compute), communication_ns)) << "iteration " << k;
  }
}

TEST(TrainingScenarioTest, CheckpointBurstDeliversEveryShardNoFasterThanTheStorageLinks) {
  const uint64_t shard = 4 << 20;
  const TrainingRun r =
      RunText(Star(10) +
              "traffic { training { host: [0, 1, 2, 3, 4, 5, 6, 7] data_parallel: 8\n"
              "  bucket_bytes: 1048576 forward { mean_ns: 10000 }\n"
              "  checkpoint { every_iterations: 1 shard_bytes: " +
              std::to_string(shard) + " storage_hosts: [8, 9] } } }\n");
  const Workload& w = r.run.run.emulation->workload;
  uint64_t received = 0;
  Time first = Time::Infinite(), last = Time::Zero();
  for (uint32_t id = 0; id < w.size(); ++id) {
    if (w.flows[id].dst_host < 8) continue;
    ASSERT_NE(r.outcomes[id].delivered, Time::Infinite());
    received += w.flows[id].size_bytes;
    first = std::min(first, r.outcomes[id].started);
    last = std::max(last, r.outcomes[id].delivered);
  }
  EXPECT_EQ(received, 8 * shard);
  const double ingress_gbps = 2 * kRateGbps * kMtu / DataWireBytes();
  EXPECT_GE(Ns(last - first), static_cast<double>(8 * shard) * 8 / ingress_gbps);
  EXPECT_TRUE(r.jobs[0].iterations[0].checkpoint);
}

// The shipped scenario, all three kinds of parallelism and checkpoints: in the flows.csv the run
// writes, no message starts before every message it waits for was delivered, and its `after`
// column lists exactly the workload's dependencies.
TEST(TrainingScenarioTest, ShippedScenarioKeepsEveryDependencyInFlowsCsv) {
  StatusOr<fabric_emu::Scenario> scenario =
      LoadScenarioFile(SourceRoot() + "/scenarios/training_3d.textproto");
  ASSERT_TRUE(scenario.ok()) << scenario.status().message();
  scenario->mutable_run()->set_progress(false);
  SoftwareRunOptions opt;
  opt.seed = scenario->run().seed();
  StatusOr<SoftwareRunResult> run = RunSoftware(*scenario, opt);
  ASSERT_TRUE(run.ok()) << run.status().message();
  const Emulation& e = *run->emulation;
  const std::string csv =
      FlowsCsv(CollectFlowMetrics(e, static_cast<uint32_t>(scenario->nic().mtu_payload_bytes())),
               e.workload, OutcomesOf(e.fabric->messages()));
  size_t checked = 0;
  EXPECT_EQ(fe::testing::StartsAfterDependencies(csv, &checked), "");
  EXPECT_EQ(checked, e.workload.after.size());
  EXPECT_GT(checked, e.workload.size() / 2);  // most messages wait for others
}

// Same scenario and seed, same jobs.csv to the byte; compute drawn from the seed changes with it.
TEST(TrainingScenarioTest, SameSeedSameJobsCsv) {
  const std::string text = Star(4) +
                           "traffic { training { host: [0, 1, 2, 3] pipeline_parallel: 2 "
                           "data_parallel: 2 microbatches: 3 iterations: 3\n"
                           "  bucket_bytes: 1048576 activation_bytes: 262144\n"
                           "  forward { distribution: LOGNORMAL mean_ns: 20000 stddev_ns: 5000 }\n"
                           "  backward { mean_ns: 40000 } } }\n";
  const TrainingRun a = RunText(text, 5), b = RunText(text, 5), c = RunText(text, 6);
  const std::string csv_a = JobsCsv(a.run.run.emulation->workload, a.jobs);
  EXPECT_EQ(csv_a, JobsCsv(b.run.run.emulation->workload, b.jobs));
  EXPECT_NE(csv_a, JobsCsv(c.run.run.emulation->workload, c.jobs));
}

}  // namespace
}  // namespace fe::control
