#include "traffic/kv_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mooncake_sample.h"
#include "traffic/kv_cache_blocks.h"

namespace fe {
namespace {

constexpr uint32_t kBlock = 512;
// Llama-3.1-8B with a bf16 cache, by hand: 32 layers x 2 (K, V) x 8 KV heads x 128 x 2 bytes.
constexpr uint64_t kLlama8BBytesPerToken = 32 * 2 * 8 * 128 * 2;  // 131072

MooncakeTrace Sample() {
  auto trace = ReadMooncakeTrace(MooncakeSamplePath(), "", kBlock);
  EXPECT_TRUE(trace.ok()) << trace.status().message();
  return std::move(trace).value();
}

std::vector<KvArrival> Arrivals(const MooncakeTrace& trace, double speedup = 1) {
  auto a = TraceArrivals(trace, "sample", speedup, Time::Zero(), Time::Infinite());
  EXPECT_TRUE(a.ok()) << a.status().message();
  return std::move(a).value();
}

KvCacheParams Params(uint32_t prefill, uint32_t decode) {
  KvCacheParams p;
  for (uint32_t i = 0; i < prefill; ++i) p.prefill_hosts.push_back(i);
  for (uint32_t i = 0; i < decode; ++i) p.decode_hosts.push_back(prefill + i);
  p.model = PresetShape(KvModelPreset::kLlama31_8B);
  p.prefill_per_token = Time::FromNs(30);
  return p;
}

Workload Make(const KvCacheParams& p, std::span<const KvArrival> arrivals) {
  auto w = MakeKvCacheWorkload(p, arrivals);
  EXPECT_TRUE(w.ok()) << w.status().message();
  return std::move(w).value();
}

uint64_t SentBytes(const Workload& w) {
  uint64_t sum = 0;
  for (const Flow& f : w.flows) sum += f.size_bytes;
  return sum;
}

// The expectation, computed from the JSONL itself (nlohmann, not the reader under test) and the
// model formula, for decode endpoints taken round robin, each holding every block it was sent:
// a request sends its tokens past the longest prefix of blocks its endpoint already holds.
uint64_t ExpectedSentBytes(uint32_t decode_endpoints) {
  std::ifstream in(MooncakeSamplePath());
  std::vector<std::set<uint64_t>> held(decode_endpoints);
  uint64_t bytes = 0;
  uint64_t i = 0;
  for (std::string line; std::getline(in, line); ++i) {
    const nlohmann::json r = nlohmann::json::parse(line);
    const auto tokens = r["input_length"].get<uint64_t>();
    const auto hashes = r["hash_ids"].get<std::vector<uint64_t>>();
    std::set<uint64_t>& mine = held[i % decode_endpoints];
    uint64_t prefix = 0;
    while (prefix < hashes.size() && mine.count(hashes[prefix]) > 0) ++prefix;
    const uint64_t reused = std::min<uint64_t>(prefix * kBlock, tokens);
    bytes += (tokens - reused) * kLlama8BBytesPerToken;
    mine.insert(hashes.begin(), hashes.end());
  }
  EXPECT_EQ(i, 200u);
  return bytes;
}

TEST(KvCacheTest, PresetBytesPerTokenFollowTheFormula) {
  EXPECT_EQ(PresetShape(KvModelPreset::kLlama31_8B).BytesPerToken(), kLlama8BBytesPerToken);
  EXPECT_EQ(PresetShape(KvModelPreset::kLlama31_70B).BytesPerToken(), 80u * 2 * 8 * 128 * 2);
  EXPECT_EQ(PresetShape(KvModelPreset::kQwen25_7B).BytesPerToken(), 28u * 2 * 4 * 128 * 2);
  EXPECT_EQ(PresetShape(KvModelPreset::kMistral7B).BytesPerToken(), 32u * 2 * 8 * 128 * 2);
  EXPECT_EQ(PresetShape(KvModelPreset::kLlama32_1B).BytesPerToken(), 16u * 2 * 8 * 64 * 2);
}

// The check: bytes equal the model formula x tokens less reused blocks, summed exactly.
TEST(KvCacheTest, BytesSentAreTheFormulaLessReusedBlocksOverTheSample) {
  const MooncakeTrace trace = Sample();
  const std::vector<KvArrival> arrivals = Arrivals(trace);
  for (const uint32_t decode : {1u, 4u}) {
    KvCacheParams p = Params(2, decode);
    p.decode_assignment = KvAssignment::kRoundRobin;
    const uint64_t expected = ExpectedSentBytes(decode);
    // Whole transfers, then layer-wise in groups of 5 layers cut into parts of at most 10 MB:
    // the cuts move no byte.
    for (const uint32_t layers_per_message : {0u, 5u}) {
      p.layers_per_message = layers_per_message;
      p.max_message_bytes = layers_per_message == 0 ? uint64_t{1} << 31 : 10'000'000;
      const Workload w = Make(p, arrivals);
      EXPECT_EQ(SentBytes(w), expected) << decode << " decode endpoints";
      uint64_t kv = 0, reused = 0, tokens = 0;
      for (const KvRequest& r : w.requests) {
        kv += r.kv_bytes;
        reused += r.reused_bytes;
        tokens += r.tokens;
      }
      EXPECT_EQ(kv, tokens * kLlama8BBytesPerToken);
      EXPECT_EQ(kv - reused, expected);
      for (const Flow& f : w.flows) EXPECT_LE(f.size_bytes, p.max_message_bytes);
    }
  }
  // The sample shares blocks (every prompt starts with block 0), so reuse is not vacuous: with one
  // decode endpoint it saves more than with four.
  EXPECT_LT(ExpectedSentBytes(1), ExpectedSentBytes(4));
}

TEST(KvCacheTest, WithoutPrefixReuseEveryTokenIsSent) {
  const MooncakeTrace trace = Sample();
  KvCacheParams p = Params(2, 1);
  p.prefix_reuse = false;
  const Workload w = Make(p, Arrivals(trace));
  uint64_t tokens = 0;
  for (const MooncakeRequest& r : trace.requests) tokens += r.input_tokens;
  EXPECT_EQ(SentBytes(w), tokens * kLlama8BBytesPerToken);
}

// One prefill endpoint, n requests of T tokens all arriving at 0: request k waits for the k
// prefills before it, so it starts at k T tau and ends at (k + 1) T tau.
TEST(KvCacheTest, ABusyPrefillEndpointQueuesRequestsFirstComeFirstServed) {
  constexpr uint64_t kTokens = 1000;
  const Time tau = Time::FromNs(40);
  std::vector<KvArrival> arrivals(5, KvArrival{Time::Zero(), kTokens, {}});
  KvCacheParams p = Params(1, 2);
  p.prefill_per_token = tau;
  const Workload w = Make(p, arrivals);
  ASSERT_EQ(w.requests.size(), 5u);
  for (uint32_t k = 0; k < 5; ++k) {
    EXPECT_EQ(w.requests[k].prefill_start, tau * static_cast<int64_t>(k * kTokens));
    EXPECT_EQ(w.requests[k].prefill_done, tau * static_cast<int64_t>((k + 1) * kTokens));
  }
  // Two prefill endpoints, least loaded: requests pair up, the third waits for the first.
  p.prefill_hosts = {0, 1};
  p.decode_hosts = {2};
  const Workload two = Make(p, arrivals);
  const Time one = tau * static_cast<int64_t>(kTokens);
  EXPECT_EQ(two.requests[0].prefill_host, 0u);
  EXPECT_EQ(two.requests[1].prefill_host, 1u);
  EXPECT_EQ(two.requests[2].prefill_start, one);
  EXPECT_EQ(two.requests[3].prefill_start, one);
  EXPECT_EQ(two.requests[4].prefill_start, one * 2);
}

TEST(KvCacheTest, NoTransferStartsBeforeItsPrefillHasComputedIt) {
  const MooncakeTrace trace = Sample();
  KvCacheParams p = Params(3, 2);
  for (const uint32_t layers_per_message : {0u, 8u}) {
    p.layers_per_message = layers_per_message;
    const Workload w = Make(p, Arrivals(trace, 100));
    std::vector<Time> last_start(w.requests.size(), Time::Zero());
    for (uint32_t m = 0; m < w.size(); ++m) {
      const KvRequest& r = w.requests[w.request_of[m]];
      EXPECT_EQ(w.flows[m].src_host, r.prefill_host);
      EXPECT_EQ(w.flows[m].dst_host, r.decode_host);
      EXPECT_TRUE(w.dependencies(m).empty());
      if (layers_per_message == 0) {
        ASSERT_EQ(w.flows[m].start, r.prefill_done);
      } else {
        // 32 layers in groups of 8: group g leaves (g + 1) / 4 of the way through prefill.
        const int64_t d = (r.prefill_done - r.prefill_start).ps();
        bool at_a_quarter = false;
        for (int64_t q = 1; q <= 4; ++q) {
          at_a_quarter |= w.flows[m].start == r.prefill_start + Time::FromPs(d * q / 4);
        }
        ASSERT_TRUE(at_a_quarter) << "message " << m;
      }
      last_start[w.request_of[m]] = std::max(last_start[w.request_of[m]], w.flows[m].start);
    }
    // Layer-wise or not, the last layers leave exactly when prefill ends.
    for (uint32_t r = 0; r < w.requests.size(); ++r) {
      if (w.requests[r].kv_bytes > w.requests[r].reused_bytes) {
        EXPECT_EQ(last_start[r], w.requests[r].prefill_done);
      }
    }
  }
}

TEST(KvCacheTest, LayerWiseGroupsLeaveAsPrefillComputesThem) {
  // One request of 100 tokens, 32 layers in groups of 5 (six of 5, one of 2), prefill 100 x 1 us.
  std::vector<KvArrival> arrivals = {KvArrival{Time::FromUs(7), 100, {}}};
  KvCacheParams p = Params(1, 1);
  p.prefill_per_token = Time::FromUs(1);
  p.layers_per_message = 5;
  const Workload w = Make(p, arrivals);
  ASSERT_EQ(w.size(), 7u);
  const uint64_t layer_bytes = kLlama8BBytesPerToken / 32 * 100;
  for (uint32_t g = 0; g < 7; ++g) {
    const uint32_t end = std::min(5 * (g + 1), 32u);
    EXPECT_EQ(w.flows[g].size_bytes, (end - 5 * g) * layer_bytes);
    // 100 us x end / 32, exact in picoseconds.
    EXPECT_EQ(w.flows[g].start, Time::FromUs(7) + Time::FromPs(100'000'000LL * end / 32));
  }
}

TEST(KvCacheTest, TimeScalingDividesArrivalTimesExactly) {
  const MooncakeTrace trace = Sample();
  const std::vector<KvArrival> real = Arrivals(trace, 1);
  // timestamp x 10^9 ps divided by each speedup is whole, so the scaled time is exact.
  for (const double speedup : {2.0, 2.5, 8.0, 1000.0}) {
    const std::vector<KvArrival> fast = Arrivals(trace, speedup);
    ASSERT_EQ(fast.size(), real.size());
    for (size_t i = 0; i < real.size(); ++i) {
      ASSERT_EQ(static_cast<double>(fast[i].arrival.ps()) * speedup,
                static_cast<double>(real[i].arrival.ps()))
          << "request " << i << " at speedup " << speedup;
    }
  }
  // At speedup 1 the arrival is the timestamp: the last request is at 72 s.
  EXPECT_EQ(real.back().arrival, Time::FromMs(72000));
}

TEST(KvCacheTest, AnArrivalPastTheRunsEndIsRefusedWithItsLine) {
  const MooncakeTrace trace = Sample();
  auto a = TraceArrivals(trace, "sample.jsonl", 0.001, Time::Zero(), Time::FromMs(1'000'000));
  ASSERT_FALSE(a.ok());
  // 3000 ms (line 11) x 1000 = 3e6 ms is the first past 1e6 ms.
  EXPECT_EQ(a.status().message().rfind("sample.jsonl:11: timestamp 3000 ms", 0), 0u)
      << a.status().message();
}

// Mean of n exponential gaps: standard error (1 / rate) / sqrt(n); n = 200,000 makes it 0.22% of
// the mean, and the tolerance of 1.2% is over five standard errors.
TEST(KvCacheTest, PoissonArrivalsHaveMeanGapOneOverTheRate) {
  KvPoissonParams p;
  p.rate_per_s = 2000;
  p.requests = 200'000;
  p.input_tokens = 64;
  p.start = Time::FromMs(5);
  p.seed = 11;
  const std::vector<KvArrival> a = PoissonArrivals(p);
  ASSERT_EQ(a.size(), p.requests);
  for (size_t i = 1; i < a.size(); ++i) ASSERT_GE(a[i].arrival, a[i - 1].arrival);
  const double mean_gap_s = (a.back().arrival - p.start).seconds() / static_cast<double>(a.size());
  EXPECT_NEAR(mean_gap_s, 1.0 / p.rate_per_s, 0.012 / p.rate_per_s);
  EXPECT_EQ(a.front().input_tokens, 64u);
  EXPECT_GT(a.front().arrival, p.start);
}

TEST(KvCacheTest, PoissonTokensComeFromTheDistribution) {
  auto cdf = FlowSizeCdf::Parse("100 0\n300 100\n", "tokens");
  ASSERT_TRUE(cdf.ok());
  KvPoissonParams p;
  p.rate_per_s = 10;
  p.requests = 1000;
  p.tokens_cdf = &cdf.value();
  p.seed = 3;
  for (const KvArrival& a : PoissonArrivals(p)) {
    ASSERT_GE(a.input_tokens, 100u);
    ASSERT_LE(a.input_tokens, 300u);
  }
}

TEST(KvCacheTest, SameSeedSameWorkloadOtherSeedOtherArrivals) {
  KvPoissonParams p;
  p.rate_per_s = 100;
  p.requests = 50;
  p.input_tokens = 300;
  p.seed = 5;
  const KvCacheParams kv = Params(2, 2);
  const std::vector<KvArrival> a1 = PoissonArrivals(p), a2 = PoissonArrivals(p);
  const Workload w1 = Make(kv, a1), w2 = Make(kv, a2);
  EXPECT_EQ(w1.flows, w2.flows);
  ASSERT_EQ(w1.requests.size(), w2.requests.size());
  for (size_t i = 0; i < w1.requests.size(); ++i) {
    EXPECT_EQ(w1.requests[i].prefill_done, w2.requests[i].prefill_done);
    EXPECT_EQ(w1.requests[i].decode_host, w2.requests[i].decode_host);
  }
  p.seed = 6;
  EXPECT_NE(Make(kv, PoissonArrivals(p)).flows, w1.flows);
}

TEST(KvCacheTest, PrefixAffinityFollowsTheHeldBlocksAndAFullHitSendsNothing) {
  const std::vector<uint64_t> a = {1, 2, 3}, b = {9, 8}, a_longer = {1, 2, 3, 4};
  std::vector<KvArrival> arrivals = {{Time::Zero(), 1536, a},
                                     {Time::Zero(), 1024, b},
                                     {Time::Zero(), 2000, a_longer},
                                     {Time::Zero(), 1536, a}};
  KvCacheParams p = Params(1, 3);
  p.decode_assignment = KvAssignment::kPrefixAffinity;
  const Workload w = Make(p, arrivals);
  // a goes to the least loaded (the first); b to the next least loaded; a_longer follows a's
  // blocks and sends only its 4th block (2000 - 1536 tokens); the repeat of a sends nothing.
  EXPECT_EQ(w.requests[0].decode_host, 1u);
  EXPECT_EQ(w.requests[1].decode_host, 2u);
  EXPECT_EQ(w.requests[2].decode_host, 1u);
  EXPECT_EQ(w.requests[2].reused_bytes, 1536 * kLlama8BBytesPerToken);
  EXPECT_EQ(w.requests[3].decode_host, 1u);
  EXPECT_EQ(w.requests[3].reused_bytes, w.requests[3].kv_bytes);
  for (uint32_t m = 0; m < w.size(); ++m) EXPECT_NE(w.request_of[m], 3u);
  EXPECT_EQ(SentBytes(w), (1536 + 1024 + 464) * kLlama8BBytesPerToken);
}

TEST(KvCacheTest, ABoundedBlockCacheEvictsTheTailBeforeThePrefix) {
  KvBlockCache cache(3);
  const std::vector<uint64_t> one = {1, 2, 3, 4}, two = {5, 6};
  cache.Hold(one);
  EXPECT_EQ(cache.size(), 3u);
  EXPECT_EQ(cache.HeldPrefix(one), 3u);  // block 4 went, the prefix 1, 2, 3 stays
  cache.Hold(two);                       // 5 and 6 are newer than 1, which is newer than 2, 3
  EXPECT_EQ(cache.HeldPrefix(two), 2u);
  EXPECT_EQ(cache.HeldPrefix(one), 1u);
  KvBlockCache unbounded;
  unbounded.Hold(one);
  unbounded.Hold(two);
  EXPECT_EQ(unbounded.size(), 6u);
}

TEST(KvCacheTest, BadParamsAreRefused) {
  const std::vector<KvArrival> arrivals = {{Time::Zero(), 10, {}}};
  KvCacheParams p = Params(2, 2);
  p.decode_hosts = {1, 2};
  auto w = MakeKvCacheWorkload(p, arrivals);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().message(), "host 1 is both a prefill and a decode host");
  p = Params(1, 1);
  p.max_time = Time::FromNs(299);  // 10 tokens x 30 ns end at 300 ns
  w = MakeKvCacheWorkload(p, arrivals);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().message().rfind("request 0: its prefill would end past", 0), 0u);
  p = Params(1, 1);
  p.max_messages = 3;
  p.layers_per_message = 1;
  w = MakeKvCacheWorkload(p, arrivals);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().message().find("more than 3 messages"), std::string::npos);
}

// The count a request's transfer makes, computed without making it: 32 layers in groups of 5 are
// 7 groups (6 of 5 layers, one of 2), and with messages of at most 1 MiB a group of 5 layers of
// 1,000 tokens (5 x 4,096 x 1,000 bytes, 19.5 MiB) goes in 20 parts, one of 2 layers in 8: 128.
// The workload made from one such request has as many messages.
TEST(KvCacheTest, RequestMessagesAreCountedAsTheWorkloadMakesThem) {
  KvCacheParams p = Params(1, 1);
  p.layers_per_message = 5;
  p.max_message_bytes = 1 << 20;
  ASSERT_EQ(p.model.LayerBytesPerToken(), kLlama8BBytesPerToken / 32);
  EXPECT_EQ(KvRequestMessages(p, 1000), 6u * 20 + 8);
  const std::vector<KvArrival> one = {KvArrival{Time::Zero(), 1000, {}}};
  EXPECT_EQ(Make(p, one).size(), KvRequestMessages(p, 1000));
  EXPECT_EQ(KvRequestMessages(p, 0), 0u);  // all reused: nothing sent
  EXPECT_EQ(KvRequestMessages(p, 1), 7u);  // one part per group
}

// 1,000 requests of 7 messages are 7,000: at a limit of 6,999 they are refused by count alone,
// naming the requests, and at 7,000 they pass.
TEST(KvCacheTest, TooManyRequestsAreRefusedBeforeTheyAreMade) {
  KvCacheParams p = Params(1, 1);
  p.layers_per_message = 5;
  p.max_messages = 6'999;
  const Status s = CheckKvRequestCount(p, 1'000, 1);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(),
            "kv cache makes more than 6999 messages: 1000 requests of at least 7 each; send fewer "
            "requests, or raise max_message_bytes or layers_per_message");
  p.max_messages = 7'000;
  EXPECT_TRUE(CheckKvRequestCount(p, 1'000, 1).ok());
}

}  // namespace
}  // namespace fe
