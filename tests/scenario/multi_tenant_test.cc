// The shipped multi-tenant scenario (scenarios/multi_tenant.textproto): a training job, a KV-cache
// service and background load on one 2:1 Clos, each on its own DSCP and switch priority. Checked
// against laws that hold whatever the contention: every job gets exactly its bytes delivered, every
// packet of a job carries the job's DSCP and lands in the queue its switch map names, no message
// starts before what it waits for, and the same seed gives the same flows.csv.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "control/run/report_writer.h"
#include "control/scenario/scenario_loader.h"
#include "flows_csv.h"
#include "traffic/message_outcomes.h"

namespace fe::control {
namespace {

struct TenantRun {
  fabric_emu::Scenario scenario;
  SoftwareRunResult run;
  nlohmann::json summary;
  std::string flows_csv;
};

// The scenario as shipped, or without its background section, run into *r.
void RunTenants(bool background, TenantRun* r) {
  const char* root = std::getenv("FABRIC_EMU_ROOT");
  ASSERT_NE(root, nullptr) << "FABRIC_EMU_ROOT must point at the source tree (ctest sets it)";
  StatusOr<fabric_emu::Scenario> scenario =
      LoadScenarioFile(std::string(root) + "/scenarios/multi_tenant.textproto");
  ASSERT_TRUE(scenario.ok()) << scenario.status().message();
  scenario->mutable_run()->set_progress(false);
  if (!background) {
    ASSERT_TRUE(scenario->traffic(2).has_cdf_load());
    scenario->mutable_traffic()->RemoveLast();
  }
  SoftwareRunOptions opt;
  opt.seed = scenario->run().seed();
  opt.scenario_dir = std::string(root) + "/scenarios";
  StatusOr<SoftwareRunResult> run = RunSoftware(*scenario, opt);
  ASSERT_TRUE(run.ok()) << run.status().message();
  r->scenario = *scenario;
  r->run = std::move(run).value();
  const Emulation& e = *r->run.emulation;
  const FlowMetrics metrics =
      CollectFlowMetrics(e, static_cast<uint32_t>(scenario->nic().mtu_payload_bytes()));
  r->summary =
      nlohmann::json::parse(SummaryJson(r->scenario, opt.seed, r->run, metrics.Summarize()));
  r->flows_csv = FlowsCsv(metrics, e.workload, OutcomesOf(e.fabric->messages()));
}

// Per job (summary.json's `jobs`, one per section in order): all its messages delivered, and the
// bytes of its rows in flows.csv, each with a finish, are the job's bytes; the NICs' delivered
// payload is the sum over the jobs. Exact: payload is counted once per byte accepted in order.
TEST(MultiTenantScenarioTest, EveryJobGetsExactlyItsBytesDelivered) {
  TenantRun r;
  ASSERT_NO_FATAL_FAILURE(RunTenants(true, &r));
  const nlohmann::json& jobs = r.summary["jobs"];
  ASSERT_EQ(jobs.size(), 3u);
  std::map<std::string, uint64_t> csv_bytes;
  std::istringstream in(r.flows_csv);
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = testing::CsvFields(line);
  std::map<std::string, size_t> col;
  for (size_t i = 0; i < header.size(); ++i) col[header[i]] = i;
  while (std::getline(in, line)) {
    const std::vector<std::string> f = testing::CsvFields(line);
    ASSERT_FALSE(f[col["finish_ns"]].empty()) << line;
    csv_bytes[f[col["job"]]] += std::stoull(f[col["size_bytes"]]);
  }
  uint64_t total = 0;
  for (const nlohmann::json& j : jobs) {
    const std::string name = j["name"].get<std::string>();
    EXPECT_EQ(j["messages_completed"], j["messages"]) << name;
    EXPECT_EQ(csv_bytes[name], j["bytes"].get<uint64_t>()) << name;
    EXPECT_GT(csv_bytes[name], 0u) << name;
    total += j["bytes"].get<uint64_t>();
  }
  EXPECT_EQ(r.summary["bytes_delivered"].get<uint64_t>(), total);
}

// Every message's packets carry its section's DSCP (the NIC writes MessageSpec::dscp into each
// IPv4 header), and the switches queue them on the priorities the map gives: 26 -> 3, 34 -> 4,
// 10 -> 1. No data queue other than those three holds anything; priority 6 holds the CNPs.
TEST(MultiTenantScenarioTest, EveryJobTravelsInItsOwnClass) {
  TenantRun r;
  ASSERT_NO_FATAL_FAILURE(RunTenants(true, &r));
  const Emulation& e = *r.run.emulation;
  const nlohmann::json& jobs = r.summary["jobs"];
  ASSERT_EQ(jobs.size(), static_cast<size_t>(r.scenario.traffic_size()));
  std::set<int> dscps;
  for (int s = 0; s < r.scenario.traffic_size(); ++s) {
    EXPECT_EQ(jobs[s]["dscp"].get<int>(), r.scenario.traffic(s).dscp());
    dscps.insert(r.scenario.traffic(s).dscp());
  }
  EXPECT_EQ(dscps.size(), 3u) << "each job its own DSCP";
  for (uint32_t m = 0; m < e.workload.size(); ++m) {
    ASSERT_EQ(e.fabric->messages().spec(m).dscp, r.scenario.traffic(e.workload.job_of[m]).dscp())
        << "message " << m;
  }
  std::set<int> busy;
  for (const nlohmann::json& q : r.summary["switch_queues"]) {
    const int queue = q["queue"].get<int>();
    EXPECT_TRUE(queue == 1 || queue == 3 || queue == 4 || queue == 6)
        << q["switch"] << " port " << q["port"] << " queue " << queue;
    if (q["max_depth_bytes"].get<uint64_t>() > 0) busy.insert(queue);
  }
  for (const int p : {1, 3, 4})
    EXPECT_TRUE(busy.contains(p)) << "priority " << p << " never queued";
}

// With and without the background: no message starts before every message it waits for was
// delivered (the training's ring steps and iterations), read back from flows.csv.
TEST(MultiTenantScenarioTest, NoMessageStartsBeforeItsDependencies) {
  for (const bool background : {true, false}) {
    SCOPED_TRACE(background ? "with background" : "without background");
    TenantRun r;
    ASSERT_NO_FATAL_FAILURE(RunTenants(background, &r));
    size_t checked = 0;
    EXPECT_EQ(testing::StartsAfterDependencies(r.flows_csv, &checked), "");
    EXPECT_EQ(checked, r.run.emulation->workload.after.size());
    EXPECT_GT(checked, 0u);
  }
}

TEST(MultiTenantScenarioTest, SameSeedSameFlowsCsv) {
  TenantRun a, b;
  ASSERT_NO_FATAL_FAILURE(RunTenants(true, &a));
  ASSERT_NO_FATAL_FAILURE(RunTenants(true, &b));
  EXPECT_EQ(a.flows_csv, b.flows_csv);
  EXPECT_NE(a.flows_csv.find(",background,"), std::string::npos);
}

}  // namespace
}  // namespace fe::control
