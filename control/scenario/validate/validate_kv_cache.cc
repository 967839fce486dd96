// The kv_cache traffic section: its pools against the built fabric, its model, and its requests
// (a trace file is read here, so that a bad line stops the run before it starts).
#include <filesystem>
#include <set>

#include "control/scenario/kv_cache_section.h"
#include "control/scenario/validate/validation.h"
#include "core/units.h"
#include "dataplane/message.h"
#include "traffic/flow_size_cdf.h"
#include "traffic/trace/mooncake.h"

namespace fe::control {
namespace {

using fabric_emu::KvCache;
using fabric_emu::KvModel;
using fabric_emu::KvMooncakeTrace;
using fabric_emu::KvPoisson;

// The longest mean span of Poisson requests, requests / rate: a tenth of the longest run, so the
// draws stay far inside it.
constexpr double kMaxPoissonSpanS = kMaxScenarioTimeNs * 1e-9 / 10;

// Each host of one pool: a host of the topology, listed once, and (decode) not a prefill host.
// Returns whether the pool passed.
bool CheckPool(Validation& v, const Site& s, int field,
               const google::protobuf::RepeatedField<int32_t>& hosts, const char* what,
               const std::set<int32_t>* other) {
  if (!v.out.Present(s, field, !hosts.empty(), std::string("at least one ") + what + " host")) {
    return false;
  }
  bool ok = true;
  std::set<int32_t> seen;
  for (int i = 0; i < hosts.size(); ++i) {
    const int32_t h = hosts[i];
    std::string error;
    if (h < 0 || (v.graph && static_cast<size_t>(h) >= v.graph->num_hosts())) {
      error = "must be a host index in [0, " +
              (v.graph ? std::to_string(v.graph->num_hosts() - 1) + "] (" + v.DescribeFabric() + ")"
                       : std::string("hosts-1]")) +
              ", got " + std::to_string(h);
    } else if (!seen.insert(h).second) {
      error = "host " + std::to_string(h) + " is listed twice";
    } else if (other != nullptr && other->contains(h)) {
      error = "host " + std::to_string(h) +
              " is also a prefill host: a request's KV cache crosses the fabric";
    }
    if (!error.empty()) v.out.AddAt(s.Line(field, i), s.Path(field, i), error);
    ok &= error.empty();
  }
  return ok;
}

bool CheckModel(Validation& v, const KvModel& m, const Site& s) {
  const bool preset = m.preset() != KvModel::PRESET_UNSPECIFIED;
  bool ok = true;
  const auto dimension = [&](int field, bool has, int32_t value, int32_t max, const char* what) {
    if (!preset && !v.out.Present(s, field, has, std::string(what) + " (or a preset)")) {
      ok = false;
    } else if (has) {
      ok &= v.out.InRange(s, field, value, 1, max);
    }
  };
  // Bounds far above any published model (Llama-3.1-405B: 126 layers, 8 KV heads, head dim 128),
  // so that a typo is caught and a product cannot overflow.
  dimension(KvModel::kLayersFieldNumber, m.has_layers(), m.layers(), 4096, "the layer count");
  dimension(KvModel::kKvHeadsFieldNumber, m.has_kv_heads(), m.kv_heads(), 4096, "KV heads");
  dimension(KvModel::kHeadDimFieldNumber, m.has_head_dim(), m.head_dim(), 65536, "the head dim");
  ok &= v.out.InRange(s, KvModel::kBytesPerElementFieldNumber, m.bytes_per_element(), 1, 8,
                      "1 for fp8 up to 8 for fp64");
  return ok;
}

bool CheckMooncake(Validation& v, const KvMooncakeTrace& m, const Site& s, uint32_t block_tokens) {
  const bool speedup_ok = v.out.Above(s, KvMooncakeTrace::kSpeedupFieldNumber, m.speedup(), 0.0);
  const bool max_ok =
      v.out.AtLeast<int64_t>(s, KvMooncakeTrace::kMaxRequestsFieldNumber, m.max_requests(), 0);
  const bool start_ok = v.Duration(s, KvMooncakeTrace::kStartNsFieldNumber, m.start_ns(), false);
  if (!v.out.Present(s, KvMooncakeTrace::kFileFieldNumber, !m.file().empty(),
                     "a Mooncake request trace (JSON Lines)") ||
      block_tokens == 0 || !max_ok) {
    return false;
  }
  StatusOr<MooncakeTrace> trace = ReadMooncakeTrace(m.file(), v.scenario_dir.string(), block_tokens,
                                                    static_cast<uint64_t>(m.max_requests()));
  if (!trace.ok()) {
    v.out.Add(s, KvMooncakeTrace::kFileFieldNumber, trace.status().message());
    return false;
  }
  if (!speedup_ok || !start_ok) return false;
  StatusOr<std::vector<KvArrival>> arrivals = TraceArrivals(
      *trace, m.file(), m.speedup(), Time::FromNs(m.start_ns()), Time::FromNs(kMaxScenarioTimeNs));
  if (!arrivals.ok()) {
    v.out.Add(s, KvMooncakeTrace::kSpeedupFieldNumber, arrivals.status().message());
    return false;
  }
  return true;
}

bool CheckPoisson(Validation& v, const KvPoisson& q, const Site& s) {
  const bool rate_ok = v.out.Present(s, KvPoisson::kRatePerSFieldNumber, q.has_rate_per_s(),
                                     "the mean arrival rate, requests per second") &&
                       v.out.Above(s, KvPoisson::kRatePerSFieldNumber, q.rate_per_s(), 0.0);
  const bool requests_ok =
      v.out.Present(s, KvPoisson::kRequestsFieldNumber, q.has_requests(), "how many requests") &&
      v.out.InRange<int64_t>(s, KvPoisson::kRequestsFieldNumber, q.requests(), 1, dp::kMaxMessages,
                             "a run's messages at most");
  bool ok = rate_ok && requests_ok;
  if (ok && static_cast<double>(q.requests()) / q.rate_per_s() > kMaxPoissonSpanS) {
    ok = false;
    v.out.Add(s, KvPoisson::kRatePerSFieldNumber,
              "requests / rate_per_s is " +
                  Num(static_cast<double>(q.requests()) / q.rate_per_s()) + " s, more than the " +
                  Num(kMaxPoissonSpanS) + " s the arrivals may span (a tenth of the longest run)");
  }
  ok &= v.Duration(s, KvPoisson::kStartNsFieldNumber, q.start_ns(), false);
  switch (q.tokens_case()) {
    case KvPoisson::kInputTokens:
      ok &= v.out.InRange<int64_t>(s, KvPoisson::kInputTokensFieldNumber, q.input_tokens(), 1,
                                   static_cast<int64_t>(kMaxMooncakeInputTokens));
      break;
    case KvPoisson::kInputTokensCdfFile: {
      const std::filesystem::path file = v.scenario_dir / q.input_tokens_cdf_file();
      std::error_code ec;
      bool file_ok = false;
      if (!std::filesystem::is_regular_file(file, ec)) {
        v.out.Add(s, KvPoisson::kInputTokensCdfFileFieldNumber,
                  "no such regular file: " + file.string());
      } else if (StatusOr<FlowSizeCdf> cdf = FlowSizeCdf::FromFile(file.string()); !cdf.ok()) {
        v.out.Add(s, KvPoisson::kInputTokensCdfFileFieldNumber, cdf.status().message());
      } else if (cdf->points().back().size_bytes > static_cast<double>(kMaxMooncakeInputTokens)) {
        v.out.Add(s, KvPoisson::kInputTokensCdfFileFieldNumber,
                  file.string() + ": token counts must be at most " +
                      std::to_string(kMaxMooncakeInputTokens) + "; the largest is " +
                      Num(cdf->points().back().size_bytes));
      } else {
        file_ok = true;
      }
      ok &= file_ok;
      break;
    }
    case KvPoisson::TOKENS_NOT_SET:
      v.out.AddWhole(s, "set input_tokens or input_tokens_cdf_file");
      return false;
  }
  return ok;
}

}  // namespace

double ValidateKvCache(Validation& v, const KvCache& kv, const Site& s) {
  bool ok =
      CheckPool(v, s, KvCache::kPrefillHostFieldNumber, kv.prefill_host(), "prefill", nullptr);
  const std::set<int32_t> prefill(kv.prefill_host().begin(), kv.prefill_host().end());
  ok &= CheckPool(v, s, KvCache::kDecodeHostFieldNumber, kv.decode_host(), "decode", &prefill);

  if (v.out.Present(s, KvCache::kModelFieldNumber, kv.has_model(),
                    "model { preset: LLAMA_3_1_8B } or its layers, kv_heads and head_dim")) {
    ok &= CheckModel(v, kv.model(), s.Nested(KvCache::kModelFieldNumber));
  } else {
    ok = false;
  }
  if (v.out.Present(s, KvCache::kPrefillNsPerTokenFieldNumber, kv.has_prefill_ns_per_token(),
                    "the prefill compute time per input token, in ns")) {
    ok &= v.Duration(s, KvCache::kPrefillNsPerTokenFieldNumber, kv.prefill_ns_per_token(), false);
  } else {
    ok = false;
  }
  if (kv.prefill_assignment() != KvCache::ROUND_ROBIN &&
      kv.prefill_assignment() != KvCache::LEAST_LOADED) {
    v.out.Add(s, KvCache::kPrefillAssignmentFieldNumber,
              "must be ROUND_ROBIN or LEAST_LOADED (PREFIX_AFFINITY picks decode hosts), got " +
                  KvCache::Assignment_Name(kv.prefill_assignment()));
    ok = false;
  }
  if (kv.decode_assignment() == KvCache::ASSIGNMENT_UNSPECIFIED) {
    v.out.Add(s, KvCache::kDecodeAssignmentFieldNumber,
              "must be ROUND_ROBIN, LEAST_LOADED or PREFIX_AFFINITY");
    ok = false;
  }
  ok &= v.out.AtLeast<int64_t>(s, KvCache::kDecodeCacheBlocksFieldNumber, kv.decode_cache_blocks(),
                               0);
  const bool block_ok = v.out.InRange(s, KvCache::kBlockTokensFieldNumber, kv.block_tokens(), 1,
                                      1 << 20, "tokens of one block");
  ok &= block_ok;
  ok &= v.out.AtLeast(s, KvCache::kLayersPerMessageFieldNumber, kv.layers_per_message(), 0);
  ok &= v.out.InRange<int64_t>(s, KvCache::kMaxMessageBytesFieldNumber, kv.max_message_bytes(), 1,
                               kMaxMessageBytes,
                               "2^31, the largest message of the InfiniBand transport");

  switch (kv.requests_case()) {
    case KvCache::kMooncake:
      ok &= CheckMooncake(v, kv.mooncake(), s.Nested(KvCache::kMooncakeFieldNumber),
                          block_ok ? static_cast<uint32_t>(kv.block_tokens()) : 0);
      break;
    case KvCache::kPoisson:
      ok &= CheckPoisson(v, kv.poisson(), s.Nested(KvCache::kPoissonFieldNumber));
      break;
    case KvCache::REQUESTS_NOT_SET:
      v.out.AddWhole(s,
                     "choose the requests: mooncake { file } or poisson { rate_per_s requests }");
      ok = false;
      break;
  }
  if (!ok || !v.graph) return 0;
  // Built here as the run builds it, so that what only the whole workload shows (a prefill
  // queue past the end of time, more messages than a run holds) stops the run before it starts;
  // its size is then exact. The seed only moves Poisson arrivals and token draws.
  const StatusOr<Workload> w =
      KvCacheWorkload(kv, *v.graph, v.scenario.run().seed(), v.scenario_dir.string());
  if (!w.ok()) {
    v.out.AddWhole(s, w.status().message());
    return 0;
  }
  return static_cast<double>(w->size());
}

}  // namespace fe::control
