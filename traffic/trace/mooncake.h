// The request traces released with Mooncake (FAST'25; kvcache-ai/Mooncake, FAST25-release/traces):
// JSON Lines, one LLM-serving request a line:
//   {"timestamp": 3000, "input_length": 915, "output_length": 12, "hash_ids": [0, 462]}
// timestamp: ms since the trace's start; input_length, output_length: tokens of the prompt and of
// the answer; hash_ids: one id per block of block_tokens prompt tokens (512 in the released
// traces), the last block possibly partial. Equal ids in two requests mean an equal prefix up to
// that block, so its KV cache can be reused. docs/workloads.md describes the format.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace fe {

// A trace file larger than this is refused before it is read: 64 MiB is about 250,000 requests of
// the released conversation trace, twenty times its whole hour and more than a packet-level run
// of their KV caches can take.
inline constexpr int64_t kMaxMooncakeTraceBytes = int64_t{64} << 20;
// Tokens of one prompt: 2^24 is 16 M, a hundred times the longest context windows of today's
// open models; more is a corrupt line, not a prompt.
inline constexpr uint64_t kMaxMooncakeInputTokens = uint64_t{1} << 24;
// 10^9 ms is 11.6 days, the longest a scenario may run; it also keeps timestamp x 10^9 ps far
// below 2^63.
inline constexpr uint64_t kMaxMooncakeTimestampMs = 1'000'000'000;

struct MooncakeRequest {
  uint64_t timestamp_ms = 0;
  uint64_t input_tokens = 0;
  uint64_t output_tokens = 0;
  uint32_t line = 0;        // 1-based line of the file, for the reports and for errors
  uint32_t hash_begin = 0;  // its hash ids: MooncakeTrace::hash_ids[hash_begin, hash_end)
  uint32_t hash_end = 0;
};

struct MooncakeTrace {
  std::vector<MooncakeRequest> requests;  // in file order, which is arrival order
  std::vector<uint64_t> hash_ids;         // every request's ids, one after the other

  std::span<const uint64_t> hashes(const MooncakeRequest& r) const {
    return {hash_ids.data() + r.hash_begin, hash_ids.data() + r.hash_end};
  }
};

// Parses the text of a trace. Blank lines are skipped and keys other than the four are ignored
// (later traces add some). A line is refused, as "source:line: reason", when it is not a JSON
// object, when one of the four keys is missing or not a whole number in range, when its hash ids
// do not number ceil(input_length / block_tokens), or when its timestamp is before the previous
// line's (requests come in arrival order). max_requests > 0 stops after that many requests.
StatusOr<MooncakeTrace> ParseMooncakeTrace(std::string_view text, std::string_view source,
                                           uint32_t block_tokens, uint64_t max_requests = 0);

// Reads `path` (relative paths start at scenario_dir) if it is a regular file of at most
// kMaxMooncakeTraceBytes, and parses it; errors name the file as given.
StatusOr<MooncakeTrace> ReadMooncakeTrace(const std::string& path, const std::string& scenario_dir,
                                          uint32_t block_tokens, uint64_t max_requests = 0);

}  // namespace fe
