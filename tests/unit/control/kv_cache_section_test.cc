// The kv_cache section: what validation refuses (one "FILE:LINE: field.path: reason" each), the
// workload a valid section makes from the shipped trace sample, and the kv.csv and summary.json
// writers.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "control/report/kv_report.h"
#include "control/scenario/kv_cache_section.h"
#include "control/scenario/scenario_loader.h"
#include "source_root.h"
#include "topology/build.h"

namespace fe::control {
namespace {

// As a file in scenarios/, so that the sample is ../traffic/data/.
std::string ScenarioPath() { return SourceRoot() + "/scenarios/t.textproto"; }

// Line numbers of the section below, for the expected errors.
std::string Scenario(const std::string& kv_fields) {
  return "topology { fat_tree { k: 4 } }\n"     // 1
         "traffic { kv_cache {\n"               // 2
         "  prefill_host: 0 prefill_host: 1\n"  // 3
         "  decode_host: 8 decode_host: 9\n"    // 4
         "  model { preset: LLAMA_3_1_8B }\n"   // 5
         "  prefill_ns_per_token: 40000\n" +    // 6
         kv_fields +                            // 7
         "} }\n";
}

constexpr char kTrace[] =
    "  mooncake { file: \"../traffic/data/mooncake_conversation_200.jsonl\" speedup: 1000 }\n";

std::string OnlyError(const std::string& text) {
  const StatusOr<fabric_emu::Scenario> s = LoadScenarioText(text, ScenarioPath());
  if (s.ok()) return "";
  const std::string m = s.status().message();
  EXPECT_EQ(m.find('\n'), std::string::npos) << "more than one error:\n" << m;
  // Errors start with the file's path; the rest is what the tests compare.
  return m.substr(m.find("t.textproto:"));
}

TEST(KvCacheSectionTest, TheShippedSampleAndExampleLoad) {
  EXPECT_EQ(OnlyError(Scenario(kTrace)), "");
  const StatusOr<fabric_emu::Scenario> example =
      LoadScenarioFile(SourceRoot() + "/scenarios/kv_cache_mooncake.textproto");
  EXPECT_TRUE(example.ok()) << example.status().message();
}

TEST(KvCacheSectionTest, BadFieldsAreRefusedAtTheirLineAndPath) {
  struct Case {
    std::string text;
    std::string error;
  };
  const std::vector<Case> cases = {
      {Scenario(kTrace) +
           "traffic { kv_cache { prefill_host: 3 decode_host: 3 model { preset: MISTRAL_7B } "
           "prefill_ns_per_token: 1 poisson { rate_per_s: 1 requests: 1 input_tokens: 1 } } }\n",
       "t.textproto:9: traffic[1].kv_cache.decode_host[0]: host 3 is also a prefill host: a "
       "request's KV cache crosses the fabric"},
      {Scenario(std::string(kTrace) + "  decode_assignment: ROUND_ROBIN\n"
                                      "  prefill_assignment: PREFIX_AFFINITY\n"),
       "t.textproto:9: traffic[0].kv_cache.prefill_assignment: must be ROUND_ROBIN or "
       "LEAST_LOADED (PREFIX_AFFINITY picks decode hosts), got PREFIX_AFFINITY"},
      {Scenario(std::string(kTrace) + "  max_message_bytes: 0\n"),
       "t.textproto:8: traffic[0].kv_cache.max_message_bytes: must be in [1, 2147483648] (2^31, "
       "the largest message of the InfiniBand transport), got 0"},
      {Scenario("  mooncake { file: \"../traffic/data/mooncake_conversation_200.jsonl\" "
                "speedup: 0 }\n"),
       "t.textproto:7: traffic[0].kv_cache.mooncake.speedup: must be > 0, got 0"},
      {Scenario("  mooncake { file: \"../traffic/data/missing.jsonl\" }\n"),
       "t.textproto:7: traffic[0].kv_cache.mooncake.file: ../traffic/data/missing.jsonl: no such "
       "regular file (relative names start at the scenario's folder)"},
      // The sample's hash ids count 512-token blocks: 256 makes the first line wrong.
      {Scenario(std::string(kTrace) + "  block_tokens: 256\n"),
       "t.textproto:7: traffic[0].kv_cache.mooncake.file: ../traffic/data/"
       "mooncake_conversation_200.jsonl:1: \"hash_ids\" has 14 ids, but 6758 input tokens make "
       "27 blocks of 256 tokens"},
      {Scenario("  poisson { rate_per_s: 10 requests: 5 }\n"),
       "t.textproto:7: traffic[0].kv_cache.poisson: set input_tokens or input_tokens_cdf_file"},
      {Scenario("  poisson { rate_per_s: 1e-9 requests: 5 input_tokens: 10 }\n"),
       "t.textproto:7: traffic[0].kv_cache.poisson.rate_per_s: requests / rate_per_s is "
       "5000000000 s, more than the 100000 s the arrivals may span (a tenth of the longest run)"},
      // Only the whole workload shows it: 16,777,216 tokens at 10 ms each is 1.68e14 ns per
      // prefill, so the sixth on a host (request 10 of two hosts) ends past 1e15 ns.
      {"topology { fat_tree { k: 4 } }\n"
       "traffic { kv_cache {\n"
       "  prefill_host: [0, 1] decode_host: 8 model { preset: LLAMA_3_1_8B }\n"
       "  prefill_ns_per_token: 1e7\n"
       "  poisson { rate_per_s: 1 requests: 14 input_tokens: 16777216 }\n"
       "} }\n",
       "t.textproto:2: traffic[0].kv_cache: request 10: its prefill would end past the latest time "
       "a run reaches; lower prefill_ns_per_token or add prefill hosts"},
      // 16,000,000 requests of 32 one-layer messages each: refused by their count, before the
      // arrivals are drawn (the request count alone is within a run's 16,776,960 messages).
      {"topology { fat_tree { k: 4 } }\n"
       "traffic { kv_cache {\n"
       "  prefill_host: 0 decode_host: 8 model { preset: LLAMA_3_1_8B }\n"
       "  prefill_ns_per_token: 1 layers_per_message: 1\n"
       "  poisson { rate_per_s: 1e9 requests: 16000000 input_tokens: 1 }\n"
       "} }\n",
       "t.textproto:2: traffic[0].kv_cache: kv cache makes more than 16776960 messages: 16000000 "
       "requests of at least 32 each; send fewer requests, or raise max_message_bytes or "
       "layers_per_message"},
      {Scenario(""),
       "t.textproto:2: traffic[0].kv_cache: choose the requests: mooncake { file } "
       "or poisson { rate_per_s requests }"},
  };
  for (const Case& c : cases) EXPECT_EQ(OnlyError(c.text), c.error) << c.text;
}

TEST(KvCacheSectionTest, PoolsAndModelAreChecked) {
  const std::string no_model =
      "topology { fat_tree { k: 4 } }\n"
      "traffic { kv_cache {\n"
      "  prefill_host: 0 prefill_host: 16\n"
      "  decode_host: 0 decode_host: 5 decode_host: 5\n"
      "  model { kv_heads: 8 head_dim: 128 }\n"
      "  poisson { rate_per_s: 10 requests: 5 input_tokens: 10 }\n"
      "} }\n";
  const StatusOr<fabric_emu::Scenario> s = LoadScenarioText(no_model, "t.textproto");
  ASSERT_FALSE(s.ok());
  const std::string m = s.status().message();
  for (const char* error :
       {"t.textproto:2: traffic[0].kv_cache.prefill_ns_per_token: required: the prefill "
        "compute time per input token, in ns",
        "t.textproto:3: traffic[0].kv_cache.prefill_host[1]: must be a host index in [0, 15] "
        "(the topology has 16 hosts), got 16",
        "t.textproto:4: traffic[0].kv_cache.decode_host[0]: host 0 is also a prefill host",
        "t.textproto:4: traffic[0].kv_cache.decode_host[2]: host 5 is listed twice",
        "t.textproto:5: traffic[0].kv_cache.model.layers: required: the layer count (or a "
        "preset)"}) {
    EXPECT_NE(m.find(error), std::string::npos) << m << "\nexpected: " << error;
  }
}

TEST(KvCacheSectionTest, PoissonRequestsDrawFromTheSeed) {
  const std::string text =
      Scenario("  poisson { rate_per_s: 1000 requests: 40 input_tokens: 700 }\n");
  const StatusOr<fabric_emu::Scenario> s = LoadScenarioText(text, ScenarioPath());
  ASSERT_TRUE(s.ok()) << s.status().message();
  StatusOr<topo::Graph> graph = topo::BuildTopology(s->topology(), "");
  ASSERT_TRUE(graph.ok());
  const fabric_emu::KvCache& kv = s->traffic(0).kv_cache();
  StatusOr<Workload> a = KvCacheWorkload(kv, *graph, 3, ""), b = KvCacheWorkload(kv, *graph, 3, "");
  StatusOr<Workload> c = KvCacheWorkload(kv, *graph, 4, "");
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  ASSERT_EQ(a->requests.size(), 40u);
  EXPECT_EQ(a->flows, b->flows);
  EXPECT_NE(a->flows, c->flows);
  // No hash ids: nothing is reused, every request sends 700 x 131072 bytes.
  for (const KvRequest& r : a->requests) {
    EXPECT_EQ(r.reused_bytes, 0u);
    EXPECT_EQ(r.kv_bytes, 700u * 131072);
  }
}

// The WebSearch table's sizes reach 3e7: as token counts, past the 2^24 a prompt may have.
TEST(KvCacheSectionTest, ATokenTableBeyondThePromptLimitIsRefused) {
  const std::string e =
      OnlyError(Scenario("  poisson { rate_per_s: 10 requests: 5 input_tokens_cdf_file: "
                         "\"../traffic/data/websearch.cdf\" }\n"));
  EXPECT_EQ(e.find("t.textproto:7: traffic[0].kv_cache.poisson.input_tokens_cdf_file: "), 0u) << e;
  EXPECT_NE(e.find("websearch.cdf: token counts must be at most 16777216; the largest is 30000000"),
            std::string::npos)
      << e;
}

TEST(KvCacheSectionTest, AModelFieldReplacesThePresetsValue) {
  fabric_emu::KvModel m;
  m.set_preset(fabric_emu::KvModel::LLAMA_3_1_70B);
  m.set_bytes_per_element(1);
  m.set_layers(40);
  const KvModelShape shape = KvModelShapeOf(m);
  EXPECT_EQ(shape.BytesPerToken(), 40u * 2 * 8 * 128 * 1);
}

StatusOr<Workload> SampleWorkload(const std::string& extra) {
  const StatusOr<fabric_emu::Scenario> s =
      LoadScenarioText(Scenario(kTrace + extra), ScenarioPath());
  EXPECT_TRUE(s.ok()) << s.status().message();
  StatusOr<topo::Graph> graph = topo::BuildTopology(s->topology(), "");
  EXPECT_TRUE(graph.ok());
  return KvCacheWorkload(s->traffic(0).kv_cache(), *graph, 7, SourceRoot() + "/scenarios");
}

TEST(KvCacheSectionTest, TheWorkloadIsTheSectionsRequests) {
  StatusOr<Workload> w = SampleWorkload("");
  ASSERT_TRUE(w.ok()) << w.status().message();
  ASSERT_EQ(w->requests.size(), 200u);
  ASSERT_EQ(w->jobs.size(), 1u);
  EXPECT_EQ(w->jobs[0].kind, "kv_cache");
  // Line 17 of the sample: 3000 ms at speedup 1000 is 3 ms; 915 tokens of 131072 bytes.
  EXPECT_EQ(w->requests[16].arrival, Time::FromMs(3));
  EXPECT_EQ(w->requests[16].kv_bytes, 915u * 131072);
  uint64_t sent = 0;
  for (const Flow& f : w->flows) {
    sent += f.size_bytes;
    EXPECT_TRUE(f.src_host == 0 || f.src_host == 1);
    EXPECT_TRUE(f.dst_host == 8 || f.dst_host == 9);
  }
  uint64_t expected = 0;
  for (const KvRequest& r : w->requests) expected += r.kv_bytes - r.reused_bytes;
  EXPECT_EQ(sent, expected);
}

// Every message delivered 1 us after it starts.
std::vector<MessageOutcome> OneMicrosecondEach(const Workload& w) {
  std::vector<MessageOutcome> out;
  for (const Flow& f : w.flows) {
    out.push_back(MessageOutcome{f.start, f.start + Time::FromUs(1), f.start + Time::FromUs(2)});
  }
  return out;
}

TEST(KvCacheSectionTest, KvCsvHasOneRowPerRequestAndIsDeterministic) {
  StatusOr<Workload> w = SampleWorkload("  max_message_bytes: 100000000\n");
  ASSERT_TRUE(w.ok()) << w.status().message();
  w->jobs[0].name = "serve";
  const std::vector<MessageOutcome> outcomes = OneMicrosecondEach(*w);
  const std::string csv = KvCsv(*w, outcomes);
  StatusOr<Workload> again = SampleWorkload("  max_message_bytes: 100000000\n");
  ASSERT_TRUE(again.ok());
  again->jobs[0].name = "serve";
  EXPECT_EQ(KvCsv(*again, OneMicrosecondEach(*again)), csv);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 201);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "request,job,prefill_host,decode_host,input_tokens,kv_bytes,reused_bytes,sent_bytes,"
            "messages,arrival_ns,prefill_start_ns,prefill_done_ns,kv_ready_ns,queue_ns,prefill_ns,"
            "transfer_ns,queueing_share");
  // The first request: 6758 tokens, nothing held yet, on prefill host 0 from time 0 for
  // 6758 x 40 us = 270.32 ms; 885,784,576 bytes in 9 parts of at most 1e8, each delivered 1 us
  // after prefill.
  const size_t first = csv.find('\n') + 1;
  EXPECT_EQ(csv.substr(first, csv.find('\n', first) - first),
            "0,serve,0,8,6758,885784576,0,885784576,9,0.000,0.000,270320000.000,270321000.000,"
            "0.000,270320000.000,1000.000,0.000000");
  const nlohmann::ordered_json j = KvSummaryJson(*w, outcomes);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["job"], "serve");
  EXPECT_EQ(j[0]["requests"], 200);
  EXPECT_EQ(j[0]["requests_completed"], 200);
  EXPECT_EQ(j[0]["transfer_ns"]["p999"], 1000.0);
}

// One request whose only message the run stopped before delivering: no transfer time, no KV
// cache time and no share to give, so every percentile is null rather than a perfect 0.
TEST(KvCacheSectionTest, ARequestNotDeliveredLeavesThePercentilesNull) {
  Workload w;
  w.jobs.push_back(Job{"serve", "kv_cache", 26});
  KvRequest q;
  q.decode_host = 1;
  q.prefill_done = Time::FromUs(10);
  q.kv_bytes = 2000;
  w.requests.push_back(q);
  w.Add(Flow{.src_host = 0, .dst_host = 1, .size_bytes = 2000, .start = q.prefill_done}, {},
        Time::Zero(), 0, kNoIndex, kNoIndex, 0);
  const std::vector<MessageOutcome> outcomes(1);  // not started, not delivered
  const std::string csv = KvCsv(w, outcomes);
  EXPECT_EQ(csv.substr(csv.find('\n') + 1),
            "0,serve,0,1,0,2000,0,2000,1,0.000,0.000,10000.000,,0.000,10000.000,,\n");
  const std::string none = R"({"p50":null,"p99":null,"p999":null,"max":null})";
  EXPECT_EQ(KvSummaryJson(w, outcomes).dump(),
            R"([{"job":"serve","requests":1,"requests_completed":0,"kv_bytes":2000,)"
            R"("reused_bytes":0,"sent_bytes":2000,"transfer_ns":)" +
                none + R"(,"kv_ready_ns":)" + none + R"(,"queueing_share":)" + none + "}]");
}

}  // namespace
}  // namespace fe::control
