// Inference KV-cache transfers with prefill/decode disaggregation (DistServe, Mooncake): each
// request is prefilled on one endpoint of the prefill pool, then its KV cache moves over the
// fabric to one endpoint of the decode pool. docs/workloads.md describes the model.
//
// A prefill endpoint serves one request at a time, first come first served: prefill of a request
// starts at max(arrival, the end of the endpoint's previous prefill) and takes input tokens x
// prefill time per token. The KV cache of the input is  tokens x KvModelShape::BytesPerToken();
// the leading blocks the decode endpoint already holds are not sent (KvBlockCache). The rest
// leaves when prefill ends, or, layer-wise, each group of layers when prefill has computed it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/status.h"
#include "core/units.h"
#include "traffic/flow_size_cdf.h"
#include "traffic/model_presets.h"
#include "traffic/trace/mooncake.h"
#include "traffic/workload.h"

namespace fe {

// One request as it reaches the service.
struct KvArrival {
  Time arrival;
  uint64_t input_tokens = 0;
  std::span<const uint64_t> hash_ids;  // its prompt's blocks; empty: nothing can be reused
};

// The trace's requests, arriving at start + timestamp / speedup (rounded to the picosecond; exact
// when timestamp x 10^9 / speedup is whole, as for speedups 2, 4, 2.5 or 1000). The hash ids point
// into `trace`. A request arriving after max_time is refused as "source:line: reason".
StatusOr<std::vector<KvArrival>> TraceArrivals(const MooncakeTrace& trace, std::string_view source,
                                               double speedup, Time start, Time max_time);

struct KvPoissonParams {
  double rate_per_s = 0;  // > 0
  uint64_t requests = 0;  // how many
  // Input tokens of every request; 0: drawn from tokens_cdf (its sizes read as tokens).
  uint64_t input_tokens = 0;
  const FlowSizeCdf* tokens_cdf = nullptr;
  Time start;  // the first request arrives one exponential gap after it
  uint64_t seed = 0;
};

// Requests of a Poisson process: gaps exponential with mean 1 / rate, rounded to the picosecond.
// They carry no hash ids.
std::vector<KvArrival> PoissonArrivals(const KvPoissonParams& params);

enum class KvAssignment : uint8_t {
  kRoundRobin,      // request i goes to endpoint i mod pool size
  kLeastLoaded,     // prefill: the endpoint free first; decode: the one sent the fewest bytes
  kPrefixAffinity,  // decode only: the endpoint holding the longest prefix, then least loaded
};

struct KvCacheParams {
  std::vector<uint32_t> prefill_hosts;  // at least one
  std::vector<uint32_t> decode_hosts;   // at least one, none of them a prefill host
  KvModelShape model;
  Time prefill_per_token;
  KvAssignment prefill_assignment = KvAssignment::kLeastLoaded;
  KvAssignment decode_assignment = KvAssignment::kLeastLoaded;
  uint32_t block_tokens = 512;  // tokens of one hash id's block
  bool prefix_reuse = true;
  uint64_t decode_cache_blocks = 0;  // per decode endpoint; 0: unbounded
  // Layers whose KV cache leaves in one message, as soon as prefill has computed them; 0: all
  // layers in one transfer when prefill ends.
  uint32_t layers_per_message = 0;
  // A larger message is cut into equal parts, sent at once (on distinct QPs, as Mooncake's
  // transfer engine slices a transfer).
  uint64_t max_message_bytes = uint64_t{1} << 31;
  uint64_t max_messages = 0;         // more is an error; 0: 2^32 - 1
  Time max_time = Time::Infinite();  // a prefill ending later is an error
  Job job{"", "kv_cache", 26};
};

// The messages of a request whose `sent_tokens` input tokens all cross the fabric (none reused):
// one per group of layers_per_message layers, times the parts max_message_bytes cuts it in.
uint64_t KvRequestMessages(const KvCacheParams& params, uint64_t sent_tokens);

// Refuses, before any arrival is drawn or message made, `requests` requests that each send at
// least `least_tokens` tokens when they would make more than params.max_messages messages.
Status CheckKvRequestCount(const KvCacheParams& params, uint64_t requests, uint64_t least_tokens);

// The transfers of `arrivals` (in arrival order), all in job 0 = params.job; requests[i] is
// arrivals[i], and every message's request_of names its request. A request whose whole input is
// reused sends nothing and has no message.
StatusOr<Workload> MakeKvCacheWorkload(const KvCacheParams& params,
                                       std::span<const KvArrival> arrivals);

}  // namespace fe
