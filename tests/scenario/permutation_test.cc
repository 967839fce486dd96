// Permutation traffic on a k = 4 fat-tree, end to end in virtual time.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "control/run/report_writer.h"
#include "control/run/software_run.h"
#include "control/scenario/scenario_loader.h"
#include "scenario_run.h"
#include "traffic/message_outcomes.h"

namespace fe::control {
namespace {

constexpr char kScenario[] = R"pb(
  name: "perm_k4"
  topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }
  traffic { permutation { message_bytes: 1048576 } }
  run { seed: 7 }
)pb";

struct Outputs {
  std::string summary;
  std::string flows;
  SoftwareRunResult run;
};

Outputs RunScenario(const std::string& text, uint64_t seed) {
  fe::testing::ScenarioRun r = fe::testing::RunScenarioText(text, "perm_k4.textproto", seed);
  Outputs o;
  o.run = std::move(r.run);
  const FlowMetrics metrics = CollectFlowMetrics(*o.run.emulation, 4096);
  o.summary = SummaryJson(r.scenario, seed, o.run, metrics.Summarize());
  o.flows =
      FlowsCsv(metrics, o.run.emulation->workload, OutcomesOf(o.run.emulation->fabric->messages()));
  return o;
}

TEST(PermutationScenarioTest, EveryByteSentIsDeliveredAndNothingDrops) {
  const Outputs o = RunScenario(kScenario, 7);
  const auto j = nlohmann::json::parse(o.summary);
  // 16 hosts, each sends 1 MiB once: conservation with zero drops and zero left in flight.
  EXPECT_EQ(j["hosts"], 16);
  EXPECT_EQ(j["switches"], 20);
  EXPECT_EQ(j["flows_total"], 16);
  EXPECT_EQ(j["flows_completed"], 16);
  EXPECT_EQ(j["bytes_sent"], 16 * 1048576);
  EXPECT_EQ(j["bytes_delivered"], 16 * 1048576);
  EXPECT_EQ(j["drops"]["packets"], 0);
  EXPECT_EQ(j["packets_sent"], j["packets_delivered"]);
  EXPECT_EQ(j["mbufs_in_use_at_end"], 0);
  // No message can beat its standalone FCT (a physical bound), so every slowdown is >= 1.
  EXPECT_GE(j["slowdown"]["p50"].get<double>(), 1.0);
  EXPECT_GE(j["fct_ns"]["p50"].get<double>(), 0.0);
}

TEST(PermutationScenarioTest, SameSeedGivesTheSameBytes) {
  const Outputs a = RunScenario(kScenario, 7);
  const Outputs b = RunScenario(kScenario, 7);
  auto strip = [](const std::string& s) {
    auto j = nlohmann::ordered_json::parse(s);
    for (const char* k : {"wall_time_s", "packet_hops_per_wall_s", "events_per_wall_s"}) {
      j.erase(k);
    }
    return j.dump();
  };
  EXPECT_EQ(strip(a.summary), strip(b.summary));
  EXPECT_EQ(a.flows, b.flows);
  const Outputs c = RunScenario(kScenario, 8);
  EXPECT_NE(a.flows, c.flows);  // another seed draws another permutation
}

// A run stopped before any message can be delivered still lists every flow. 1 MiB at 100 Gb/s
// takes at least 8 x 1048576 / 1e11 s = 83.9 us to serialise, so at 20 us none is through.
TEST(PermutationScenarioTest, StoppedRunListsUndeliveredFlowsWithoutAnFct) {
  const Outputs o =
      RunScenario(R"pb(
                    topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }
                    traffic { permutation { message_bytes: 1048576 } }
                    run { seed: 7 stop_ns: 20000 }
                  )pb",
                  7);
  const auto j = nlohmann::json::parse(o.summary);
  EXPECT_EQ(j["flows_total"], 16);
  EXPECT_EQ(j["flows_completed"], 0);
  std::istringstream csv(o.flows);
  std::string line;
  std::getline(csv, line);  // header
  int rows = 0;
  while (std::getline(csv, line)) {
    ++rows;
    // start_ns is set; finish_ns, fct_ns and slowdown are empty; ideal_fct_ns is known.
    EXPECT_NE(line.find(",,"), std::string::npos) << line;
    EXPECT_EQ(line.back(), ',') << line;
  }
  EXPECT_EQ(rows, 16);
}

// docs/scenario.md's Outputs section is the users' key to the files: every top-level key of
// summary.json is named there, and flows.csv's header is given verbatim.
TEST(PermutationScenarioTest, OutputsAreDocumented) {
  const char* root = std::getenv("FABRIC_EMU_ROOT");
  ASSERT_NE(root, nullptr) << "run the tests through ctest, which sets FABRIC_EMU_ROOT";
  std::ifstream in(std::string(root) + "/docs/scenario.md");
  std::ostringstream doc_text;
  doc_text << in.rdbuf();
  const std::string doc = doc_text.str();
  const size_t outputs = doc.find("## Outputs");
  ASSERT_NE(outputs, std::string::npos);
  const std::string section = doc.substr(outputs, doc.find("\n## ", outputs + 1) - outputs);

  const Outputs o = RunScenario(kScenario, 7);
  const nlohmann::ordered_json summary = nlohmann::ordered_json::parse(o.summary);
  for (const auto& [key, value] : summary.items()) {
    EXPECT_NE(section.find("`" + key + "`"), std::string::npos) << key;
  }
  const std::string header = o.flows.substr(0, o.flows.find('\n'));
  EXPECT_NE(section.find("`" + header + "`"), std::string::npos) << header;
}

TEST(PermutationScenarioTest, LoneFlowFromTextMatchesStoreAndForward) {
  // 100 Gb/s, 1 us links, host 0 to host 15 crosses 6 links; 8 full 4096-byte packets.
  // Wire bytes per packet: 4096 + 62 headers/ICRC/FCS + 20 preamble/IFG = 4178 -> 334.24 ns.
  // FCT = 8 x 334.24 + 5 x 334.24 + 6 x 1000 = 10345.12 ns.
  const Outputs o =
      RunScenario(R"pb(
                    name: "lone"
                    topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }
                    traffic { flow_list { flow { src_host: 0 dst_host: 15 message_bytes: 32768 } } }
                  )pb",
                  1);
  // Then its job (the section's pattern and index), its actual start and no dependency.
  EXPECT_NE(o.flows.find(",10345.120,10345.120,1.000000,flow_list0,0.000,\n"), std::string::npos)
      << o.flows;
}

}  // namespace
}  // namespace fe::control
