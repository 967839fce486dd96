#include "traffic/kv_cache.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/random.h"
#include "traffic/kv_cache_blocks.h"

namespace fe {
namespace {

constexpr int64_t kPsPerMs = 1'000'000'000;

// The endpoint of `pool` with the smallest load, the lowest index among equals.
template <typename Load>
uint32_t LeastLoaded(size_t pool, Load load) {
  uint32_t best = 0;
  for (uint32_t i = 1; i < pool; ++i) {
    if (load(i) < load(best)) best = i;
  }
  return best;
}

// Picks endpoints and keeps what the picks depend on: when each prefill endpoint frees, what each
// decode endpoint holds and has been sent.
class Assigner {
 public:
  explicit Assigner(const KvCacheParams& p)
      : p_(p),
        prefill_free_(p.prefill_hosts.size(), Time::Zero()),
        decode_bytes_(p.decode_hosts.size(), 0),
        decode_blocks_(p.decode_hosts.size(), KvBlockCache(p.decode_cache_blocks)) {}

  uint32_t Prefill(uint64_t i, Time arrival) const {
    if (p_.prefill_assignment == KvAssignment::kRoundRobin) {
      return static_cast<uint32_t>(i % p_.prefill_hosts.size());
    }
    // Free first = starts first: an endpoint free before the arrival starts it at arrival.
    return LeastLoaded(p_.prefill_hosts.size(),
                       [&](uint32_t e) { return std::max(prefill_free_[e], arrival); });
  }

  uint32_t Decode(uint64_t i, std::span<const uint64_t> hashes) const {
    const auto bytes = [&](uint32_t e) { return decode_bytes_[e]; };
    switch (p_.decode_assignment) {
      case KvAssignment::kRoundRobin:
        return static_cast<uint32_t>(i % p_.decode_hosts.size());
      case KvAssignment::kLeastLoaded:
        return LeastLoaded(p_.decode_hosts.size(), bytes);
      case KvAssignment::kPrefixAffinity:
        // The longest held prefix first (negated, so that the least is the best).
        return LeastLoaded(p_.decode_hosts.size(), [&](uint32_t e) {
          return std::pair(-static_cast<int64_t>(Held(e, hashes)), bytes(e));
        });
    }
    return 0;
  }

  uint64_t Held(uint32_t decode, std::span<const uint64_t> hashes) const {
    return p_.prefix_reuse ? decode_blocks_[decode].HeldPrefix(hashes) : 0;
  }

  Time PrefillFree(uint32_t prefill) const { return prefill_free_[prefill]; }
  void Prefilled(uint32_t prefill, Time done) { prefill_free_[prefill] = done; }
  void Sent(uint32_t decode, uint64_t bytes, std::span<const uint64_t> hashes) {
    decode_bytes_[decode] += bytes;
    if (p_.prefix_reuse) decode_blocks_[decode].Hold(hashes);
  }

 private:
  const KvCacheParams& p_;
  std::vector<Time> prefill_free_;
  std::vector<uint64_t> decode_bytes_;
  std::vector<KvBlockCache> decode_blocks_;
};

uint32_t LayersPerMessage(const KvCacheParams& p) {
  return p.layers_per_message == 0 ? p.model.layers
                                   : std::min(p.layers_per_message, p.model.layers);
}

uint64_t MaxMessages(const KvCacheParams& p) {
  return p.max_messages == 0 ? uint64_t{std::numeric_limits<uint32_t>::max()} : p.max_messages;
}

// The KV cache of layers [first, end) for `tokens` tokens.
uint64_t GroupBytes(const KvCacheParams& p, uint32_t first, uint32_t end, uint64_t tokens) {
  return uint64_t{end - first} * p.model.LayerBytesPerToken() * tokens;
}

// The equal parts of at most max_message_bytes a transfer of `bytes` is cut in.
uint64_t PartsOf(const KvCacheParams& p, uint64_t bytes) {
  return (bytes + p.max_message_bytes - 1) / p.max_message_bytes;
}

Status TooManyMessages(uint64_t max_messages, const std::string& why) {
  return Status::Error("kv cache makes more than " + std::to_string(max_messages) + " messages" +
                       why +
                       "; send fewer requests, or raise max_message_bytes or "
                       "layers_per_message");
}

Status CheckParams(const KvCacheParams& p) {
  if (p.prefill_hosts.empty() || p.decode_hosts.empty()) {
    return Status::Error("kv cache needs at least one prefill and one decode host");
  }
  for (const uint32_t h : p.decode_hosts) {
    if (std::find(p.prefill_hosts.begin(), p.prefill_hosts.end(), h) != p.prefill_hosts.end()) {
      return Status::Error("host " + std::to_string(h) + " is both a prefill and a decode host");
    }
  }
  if (p.prefill_assignment == KvAssignment::kPrefixAffinity) {
    return Status::Error("prefix affinity picks decode endpoints, not prefill endpoints");
  }
  if (p.model.BytesPerToken() == 0) return Status::Error("kv cache model has no bytes per token");
  if (p.block_tokens == 0) return Status::Error("kv cache block_tokens must be > 0");
  if (p.max_message_bytes == 0) return Status::Error("kv cache max_message_bytes must be > 0");
  if (p.prefill_per_token < Time::Zero()) return Status::Error("prefill time is negative");
  return Status::Ok();
}

}  // namespace

StatusOr<std::vector<KvArrival>> TraceArrivals(const MooncakeTrace& trace, std::string_view source,
                                               double speedup, Time start, Time max_time) {
  if (!(speedup > 0) || !std::isfinite(speedup)) {
    return Status::Error("speedup must be a finite number > 0");
  }
  std::vector<KvArrival> out;
  out.reserve(trace.requests.size());
  for (const MooncakeRequest& r : trace.requests) {
    // Long double holds timestamp x 10^9 exactly (below 2^64), so one rounding, of the quotient.
    const long double ps =
        std::round(static_cast<long double>(r.timestamp_ms) * kPsPerMs / speedup) + start.ps();
    if (ps > static_cast<long double>(max_time.ps())) {
      return Status::Error(std::string(source) + ":" + std::to_string(r.line) + ": timestamp " +
                           std::to_string(r.timestamp_ms) + " ms at speedup " +
                           std::to_string(speedup) + " arrives past the latest time a run reaches");
    }
    out.push_back(
        KvArrival{Time::FromPs(static_cast<int64_t>(ps)), r.input_tokens, trace.hashes(r)});
  }
  return out;
}

std::vector<KvArrival> PoissonArrivals(const KvPoissonParams& p) {
  Random rng(p.seed);
  std::vector<KvArrival> out;
  out.reserve(p.requests);
  const double per_ps = p.rate_per_s * 1e-12;
  Time t = p.start;
  for (uint64_t i = 0; i < p.requests; ++i) {
    // 1 - u lies in (0, 1]: the logarithm is finite (as in cdf_load.cc).
    t += Time::FromPs(std::llround(-std::log(1 - rng.NextUnitDouble()) / per_ps));
    const uint64_t tokens = p.input_tokens > 0 ? p.input_tokens : p.tokens_cdf->Sample(rng);
    out.push_back(KvArrival{t, tokens, {}});
  }
  return out;
}

uint64_t KvRequestMessages(const KvCacheParams& p, uint64_t sent_tokens) {
  const uint32_t layers = p.model.layers;
  const uint32_t group = LayersPerMessage(p);
  uint64_t messages = 0;
  for (uint32_t first = 0; sent_tokens > 0 && group > 0 && first < layers; first += group) {
    messages += PartsOf(p, GroupBytes(p, first, std::min(first + group, layers), sent_tokens));
  }
  return messages;
}

Status CheckKvRequestCount(const KvCacheParams& p, uint64_t requests, uint64_t least_tokens) {
  if (Status s = CheckParams(p); !s.ok()) return s;
  const uint64_t least = KvRequestMessages(p, least_tokens);
  const uint64_t max_messages = MaxMessages(p);
  if (least == 0 || requests <= max_messages / least) return Status::Ok();
  return TooManyMessages(max_messages, ": " + std::to_string(requests) + " requests of at least " +
                                           std::to_string(least) + " each");
}

StatusOr<Workload> MakeKvCacheWorkload(const KvCacheParams& p,
                                       std::span<const KvArrival> arrivals) {
  if (Status s = CheckParams(p); !s.ok()) return s;
  const uint32_t layers = p.model.layers;
  const uint32_t group = LayersPerMessage(p);
  const uint64_t max_messages = MaxMessages(p);
  Workload w;
  w.jobs.push_back(p.job);
  w.requests.reserve(arrivals.size());
  Assigner assign(p);
  for (uint64_t i = 0; i < arrivals.size(); ++i) {
    const KvArrival& a = arrivals[i];
    KvRequest r;
    r.id = i;
    r.arrival = a.arrival;
    r.tokens = a.input_tokens;
    const uint32_t prefill = assign.Prefill(i, a.arrival);
    const uint32_t decode = assign.Decode(i, a.hash_ids);
    r.prefill_host = p.prefill_hosts[prefill];
    r.decode_host = p.decode_hosts[decode];
    // Queued until the endpoint finishes the prefills before it.
    r.prefill_start = std::max(a.arrival, assign.PrefillFree(prefill));
    // In 128 bits: prefills can queue past any time a run reaches, never past 2^127 ps.
    const __int128 done_ps =
        static_cast<__int128>(p.prefill_per_token.ps()) * a.input_tokens + r.prefill_start.ps();
    if (done_ps > p.max_time.ps()) {
      return Status::Error("request " + std::to_string(i) +
                           ": its prefill would end past the latest time a run reaches; lower "
                           "prefill_ns_per_token or add prefill hosts");
    }
    const Time prefill_time = p.prefill_per_token * static_cast<int64_t>(a.input_tokens);
    r.prefill_done = r.prefill_start + prefill_time;
    // Blocks before `held` are on the decode endpoint; the last block may be partial.
    const uint64_t held = assign.Held(decode, a.hash_ids);
    const uint64_t reused_tokens = std::min(held * p.block_tokens, a.input_tokens);
    const uint64_t sent_tokens = a.input_tokens - reused_tokens;
    r.kv_bytes = a.input_tokens * p.model.BytesPerToken();
    r.reused_bytes = reused_tokens * p.model.BytesPerToken();
    const auto request = static_cast<uint32_t>(w.requests.size());
    for (uint32_t first = 0; sent_tokens > 0 && first < layers; first += group) {
      const uint32_t end = std::min(first + group, layers);
      // Prefill computes layer after layer: layers [0, end) are done end / layers of the way in.
      const Time ready =
          r.prefill_start + Time::FromPs(static_cast<int64_t>(
                                static_cast<__int128>(prefill_time.ps()) * end / layers));
      const uint64_t bytes = GroupBytes(p, first, end, sent_tokens);
      const uint64_t parts = PartsOf(p, bytes);
      for (uint64_t k = 0; k < parts; ++k) {
        if (w.size() >= max_messages) return TooManyMessages(max_messages, "");
        const uint64_t size = bytes / parts + (k < bytes % parts ? 1 : 0);
        w.Add(Flow{.src_host = r.prefill_host,
                   .dst_host = r.decode_host,
                   .size_bytes = size,
                   .start = ready},
              {}, Time::Zero(), 0, kNoIndex, kNoIndex, request);
      }
    }
    assign.Prefilled(prefill, r.prefill_done);
    assign.Sent(decode, r.kv_bytes - r.reused_bytes, a.hash_ids);
    w.requests.push_back(r);
  }
  return w;
}

}  // namespace fe
