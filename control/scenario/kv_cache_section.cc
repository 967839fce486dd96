#include "control/scenario/kv_cache_section.h"

#include <filesystem>
#include <optional>
#include <vector>

#include "control/scenario/validate/scenario_validator.h"
#include "core/units.h"
#include "dataplane/message.h"
#include "traffic/flow_size_cdf.h"
#include "traffic/trace/mooncake.h"

namespace fe::control {
namespace {

using fabric_emu::KvCache;

KvAssignment AssignmentOf(KvCache::Assignment a) {
  switch (a) {
    case KvCache::ROUND_ROBIN:
      return KvAssignment::kRoundRobin;
    case KvCache::PREFIX_AFFINITY:
      return KvAssignment::kPrefixAffinity;
    case KvCache::LEAST_LOADED:
    case KvCache::ASSIGNMENT_UNSPECIFIED:
      break;
  }
  return KvAssignment::kLeastLoaded;
}

StatusOr<std::vector<uint32_t>> Hosts(const google::protobuf::RepeatedField<int32_t>& hosts,
                                      const topo::Graph& graph, const char* field) {
  std::vector<uint32_t> out;
  for (const int32_t h : hosts) {
    if (h < 0 || static_cast<size_t>(h) >= graph.num_hosts()) {
      return Status::Error(std::string(field) + ": host " + std::to_string(h) +
                           " is not in the topology");
    }
    out.push_back(static_cast<uint32_t>(h));
  }
  return out;
}

std::string InFolder(const std::string& file, const std::string& scenario_dir) {
  const std::filesystem::path path(file);
  return path.is_relative() && !scenario_dir.empty() ? (scenario_dir / path).string() : file;
}

}  // namespace

KvModelShape KvModelShapeOf(const fabric_emu::KvModel& m) {
  KvModelShape shape;
  switch (m.preset()) {
    case fabric_emu::KvModel::LLAMA_3_1_8B:
      shape = PresetShape(KvModelPreset::kLlama31_8B);
      break;
    case fabric_emu::KvModel::LLAMA_3_1_70B:
      shape = PresetShape(KvModelPreset::kLlama31_70B);
      break;
    case fabric_emu::KvModel::QWEN_2_5_7B:
      shape = PresetShape(KvModelPreset::kQwen25_7B);
      break;
    case fabric_emu::KvModel::MISTRAL_7B:
      shape = PresetShape(KvModelPreset::kMistral7B);
      break;
    case fabric_emu::KvModel::LLAMA_3_2_1B:
      shape = PresetShape(KvModelPreset::kLlama32_1B);
      break;
    case fabric_emu::KvModel::PRESET_UNSPECIFIED:
      break;
  }
  if (m.has_layers()) shape.layers = static_cast<uint32_t>(m.layers());
  if (m.has_kv_heads()) shape.kv_heads = static_cast<uint32_t>(m.kv_heads());
  if (m.has_head_dim()) shape.head_dim = static_cast<uint32_t>(m.head_dim());
  shape.bytes_per_element = static_cast<uint32_t>(m.bytes_per_element());
  return shape;
}

StatusOr<Workload> KvCacheWorkload(const KvCache& kv, const topo::Graph& graph, uint64_t seed,
                                   const std::string& scenario_dir) {
  KvCacheParams p;
  StatusOr<std::vector<uint32_t>> prefill = Hosts(kv.prefill_host(), graph, "prefill_host");
  if (!prefill.ok()) return prefill.status();
  StatusOr<std::vector<uint32_t>> decode = Hosts(kv.decode_host(), graph, "decode_host");
  if (!decode.ok()) return decode.status();
  p.prefill_hosts = std::move(prefill).value();
  p.decode_hosts = std::move(decode).value();
  p.model = KvModelShapeOf(kv.model());
  p.prefill_per_token = Time::FromNs(kv.prefill_ns_per_token());
  p.prefill_assignment = AssignmentOf(kv.prefill_assignment());
  p.decode_assignment = AssignmentOf(kv.decode_assignment());
  p.block_tokens = static_cast<uint32_t>(kv.block_tokens());
  p.prefix_reuse = kv.prefix_reuse();
  p.decode_cache_blocks = static_cast<uint64_t>(kv.decode_cache_blocks());
  p.layers_per_message = static_cast<uint32_t>(kv.layers_per_message());
  p.max_message_bytes = static_cast<uint64_t>(kv.max_message_bytes());
  p.max_messages = dp::kMaxMessages;
  p.max_time = Time::FromNs(kMaxScenarioTimeNs);

  switch (kv.requests_case()) {
    case KvCache::kMooncake: {
      const fabric_emu::KvMooncakeTrace& m = kv.mooncake();
      StatusOr<MooncakeTrace> trace = ReadMooncakeTrace(m.file(), scenario_dir, p.block_tokens,
                                                        static_cast<uint64_t>(m.max_requests()));
      if (!trace.ok()) return trace.status();
      StatusOr<std::vector<KvArrival>> arrivals =
          TraceArrivals(*trace, m.file(), m.speedup(), Time::FromNs(m.start_ns()),
                        Time::FromNs(kMaxScenarioTimeNs));
      if (!arrivals.ok()) return arrivals.status();
      return MakeKvCacheWorkload(p, *arrivals);
    }
    case KvCache::kPoisson: {
      const fabric_emu::KvPoisson& q = kv.poisson();
      KvPoissonParams a;
      a.rate_per_s = q.rate_per_s();
      a.requests = static_cast<uint64_t>(q.requests());
      a.start = Time::FromNs(q.start_ns());
      a.seed = seed;
      // Poisson requests carry no hash ids, so each sends its whole input, at least one token:
      // too many of them are refused before millions of arrivals and messages are made.
      const uint64_t least_tokens =
          q.has_input_tokens_cdf_file() ? 1 : static_cast<uint64_t>(q.input_tokens());
      if (Status s = CheckKvRequestCount(p, a.requests, least_tokens); !s.ok()) return s;
      std::optional<FlowSizeCdf> tokens;
      if (q.has_input_tokens_cdf_file()) {
        StatusOr<FlowSizeCdf> cdf =
            FlowSizeCdf::FromFile(InFolder(q.input_tokens_cdf_file(), scenario_dir));
        if (!cdf.ok()) return cdf.status();
        tokens = std::move(cdf).value();
        a.tokens_cdf = &*tokens;
      } else {
        a.input_tokens = static_cast<uint64_t>(q.input_tokens());
      }
      return MakeKvCacheWorkload(p, PoissonArrivals(a));
    }
    case KvCache::REQUESTS_NOT_SET:
      break;
  }
  return Status::Error("kv_cache without requests: set mooncake or poisson");
}

}  // namespace fe::control
