// KV-cache transfers of the shipped Mooncake sample, end to end in virtual time on a k = 4
// fat-tree: what arrives is what the model formula says, no transfer starts before its prefill
// ends, no transfer beats the line rate, and the outputs are the same bytes for the same seed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "control/report/kv_report.h"
#include "control/run/report_writer.h"
#include "scenario_run.h"
#include "source_root.h"
#include "traffic/kv_metrics.h"
#include "traffic/message_outcomes.h"

namespace fe::control {
namespace {

constexpr int kRequests = 30;
constexpr uint64_t kBlockTokens = 512;
// A small explicit model keeps the run short: 2 layers x 2 x 1 KV head x 64 x 1 byte.
constexpr uint64_t kBytesPerToken = 2 * 2 * 1 * 64 * 1;

// Two prefill hosts in pod 0, one decode host in pod 3; the first 30 requests of the sample (by
// absolute path: the test runs from anywhere), at 1000x speed (its 3 s steps become 3 ms).
std::string Scenario(const std::string& extra) {
  return R"pb(
           name: "kv_e2e"
           topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }
           traffic { job: "serve"
                     kv_cache { prefill_host: [ 0, 1 ]
                                decode_host: 15
                                mooncake { speedup: 1000 max_requests: 30 file: ")pb" +
         SourceRoot() + "/traffic/data/mooncake_conversation_200.jsonl" +
         R"pb(" }
              model { layers: 2 kv_heads: 1 head_dim: 64 bytes_per_element: 1 }
              prefill_ns_per_token: 50
         )pb" +
         extra +
         R"pb(
    }
    }
  )pb";
}

struct KvRun {
  testing::ScenarioRun run;
  std::vector<MessageOutcome> outcomes;
  std::string kv_csv;
  std::string flows_csv;
};

KvRun RunKv(const std::string& extra, uint64_t seed = 1) {
  KvRun r{testing::RunScenarioText(Scenario(extra), "kv_e2e.textproto", seed), {}, "", ""};
  const Emulation& e = *r.run.run.emulation;
  r.outcomes = OutcomesOf(e.fabric->messages());
  r.kv_csv = KvCsv(e.workload, r.outcomes);
  r.flows_csv = FlowsCsv(CollectFlowMetrics(e, 4096), e.workload, r.outcomes);
  return r;
}

// The bytes the decode host should receive, from the JSONL itself: one decode host holds every
// block it was sent, so a request sends its tokens past its longest held prefix.
uint64_t ExpectedBytes() {
  std::ifstream in(SourceRoot() + "/traffic/data/mooncake_conversation_200.jsonl");
  std::set<uint64_t> held;
  uint64_t bytes = 0;
  std::string line;
  for (int i = 0; i < kRequests && std::getline(in, line); ++i) {
    const nlohmann::json j = nlohmann::json::parse(line);
    const auto tokens = j["input_length"].get<uint64_t>();
    const auto hashes = j["hash_ids"].get<std::vector<uint64_t>>();
    uint64_t prefix = 0;
    while (prefix < hashes.size() && held.count(hashes[prefix]) > 0) ++prefix;
    bytes += (tokens - std::min(prefix * kBlockTokens, tokens)) * kBytesPerToken;
    held.insert(hashes.begin(), hashes.end());
  }
  return bytes;
}

TEST(KvCacheScenarioTest, TheDecodeHostReceivesTheFormulaLessReusedBlocks) {
  const KvRun r = RunKv("");
  const Emulation& e = *r.run.run.emulation;
  ASSERT_EQ(e.workload.requests.size(), static_cast<size_t>(kRequests));
  uint64_t delivered = 0;
  for (uint32_t m = 0; m < e.workload.size(); ++m) {
    ASSERT_NE(r.outcomes[m].delivered, Time::Infinite()) << "message " << m;
    delivered += e.workload.flows[m].size_bytes;
  }
  EXPECT_EQ(delivered, ExpectedBytes());
  const auto summary = nlohmann::json::parse(
      SummaryJson(r.run.scenario, 1, r.run.run, CollectFlowMetrics(e, 4096).Summarize()));
  EXPECT_EQ(summary["bytes_delivered"].get<uint64_t>(), ExpectedBytes());
}

TEST(KvCacheScenarioTest, NoTransferStartsBeforeItsPrefillEndsOrBeatsTheLineRate) {
  for (const char* layer_wise : {"", "layers_per_message: 1"}) {
    const KvRun r = RunKv(layer_wise);
    const Workload& w = r.run.run.emulation->workload;
    for (uint32_t m = 0; m < w.size(); ++m) {
      const KvRequest& q = w.requests[w.request_of[m]];
      // Whole: at prefill_done. Layer-wise, 2 layers: the first at half the prefill.
      const Time ready =
          layer_wise[0] == '\0'
              ? q.prefill_done
              : q.prefill_start + Time::FromPs((q.prefill_done - q.prefill_start).ps() / 2);
      ASSERT_GE(r.outcomes[m].started, ready) << "message " << m;
    }
    // flows.csv says the same: started_ns (column 13), printed to the picosecond, is never
    // before the prefill end (compared within half a picosecond, the print's rounding).
    std::istringstream rows(r.flows_csv);
    std::string row;
    std::getline(rows, row);
    ASSERT_NE(row.find(",started_ns,"), std::string::npos) << row;
    uint32_t m = 0;
    for (; std::getline(rows, row); ++m) {
      std::istringstream cells(row);
      std::string cell;
      for (int c = 0; c < 13; ++c) std::getline(cells, cell, ',');
      const KvRequest& q = w.requests[w.request_of[m]];
      const Time ready = layer_wise[0] == '\0' ? q.prefill_done : q.prefill_start;
      EXPECT_GE(std::stod(cell), static_cast<double>(ready.ps()) / 1000 - 0.0005) << row;
    }
    EXPECT_EQ(m, w.size());
    // The KV cache of a request cannot arrive faster than its bytes cross one 100 Gb/s link
    // after the last layer is computed: sent / 2 (its last layer) x 8 / 1e11 s layer-wise, all
    // of it otherwise.
    for (const KvRequestRecord& rec : KvRequestRecords(w, r.outcomes)) {
      ASSERT_TRUE(rec.completed());
      const uint64_t last_bytes = layer_wise[0] == '\0' ? rec.sent_bytes : rec.sent_bytes / 2;
      EXPECT_GE(rec.transfer().ps(), static_cast<int64_t>(last_bytes) * 80)
          << "request " << rec.request;
    }
  }
}

TEST(KvCacheScenarioTest, SameSeedSameBytes) {
  const KvRun a = RunKv("decode_assignment: PREFIX_AFFINITY");
  const KvRun b = RunKv("decode_assignment: PREFIX_AFFINITY");
  EXPECT_EQ(a.kv_csv, b.kv_csv);
  EXPECT_EQ(a.flows_csv, b.flows_csv);
  EXPECT_EQ(std::count(a.kv_csv.begin(), a.kv_csv.end(), '\n'), kRequests + 1);
}

}  // namespace
}  // namespace fe::control
