#include "traffic/trace/ns3.h"

#include <optional>
#include <string>
#include <vector>

#include "traffic/trace/text.h"

namespace fe {
namespace {

constexpr int kPriorityGroups = 8;  // ns-3's qbb devices have 8 queues
constexpr uint64_t kMaxPort = 65535;

}  // namespace

StatusOr<Workload> ParseNs3FlowFile(std::string_view text, const TraceParams& params) {
  TraceLines lines(text);
  std::string_view line;
  std::optional<uint64_t> count;
  uint32_t count_line = 0;
  Workload w;
  w.jobs.push_back(params.job);
  while ((!count || w.size() < *count) && lines.Next(&line)) {
    const uint32_t n = lines.number();
    if (IsBlank(line)) continue;
    const std::vector<std::string_view> tokens = Tokens(line);
    if (!count) {
      if (tokens.size() != 1 || !(count = ParseWhole(tokens[0]))) {
        return TraceLineError(
            params, n, "the first line is the number of flows, got '" + std::string(line) + "'");
      }
      count_line = n;
      w.flows.reserve(*count < (uint64_t{1} << 24) ? *count : 0);
      continue;
    }
    if (tokens.size() != 6) {
      return TraceLineError(params, n,
                            "expected 6 fields `src dst pg dport size_bytes start_s`, got " +
                                std::to_string(tokens.size()));
    }
    const char* const names[] = {"src", "dst", "pg", "dport", "size_bytes"};
    uint64_t v[5];
    for (int i = 0; i < 5; ++i) {
      const std::optional<uint64_t> x = ParseWhole(tokens[i]);
      if (!x) {
        return TraceLineError(params, n, std::string(names[i]) + " " + NotWholeReason(tokens[i]));
      }
      v[i] = *x;
    }
    std::string reason;
    Flow f;
    if (!TraceHost(params, v[0], &f.src_host, &reason) ||
        !TraceHost(params, v[1], &f.dst_host, &reason)) {
      return TraceLineError(params, n, reason);
    }
    if (f.src_host == f.dst_host) {
      return TraceLineError(params, n,
                            "source and destination are both host " + std::to_string(f.src_host) +
                                ": a message crosses the fabric");
    }
    if (v[2] >= kPriorityGroups) {
      return TraceLineError(params, n,
                            "pg must be a priority group from 0 to 7, got " + std::to_string(v[2]));
    }
    if (v[3] > kMaxPort) {
      return TraceLineError(params, n,
                            "dport must be a UDP port, 0 to 65535, got " + std::to_string(v[3]));
    }
    if (!TraceMessageBytes(params, v[4], &reason)) return TraceLineError(params, n, reason);
    f.size_bytes = v[4];
    const std::optional<uint64_t> start_ps = ParseDecimalScaled(tokens[5], 12);  // seconds
    if (!start_ps) {
      return TraceLineError(params, n,
                            "start_s must be a time in seconds, a decimal >= 0, got '" +
                                std::string(tokens[5]) + "'");
    }
    Time start;
    if (!ScaledTraceTime(params, *start_ps, "start_s", &start, &reason)) {
      return TraceLineError(params, n, reason);
    }
    f.start = params.start + start;
    w.Add(f);
  }
  if (!count) return TraceLineError(params, 1, "empty: the first line is the number of flows");
  if (w.size() < *count) {
    return TraceLineError(params, count_line,
                          "the first line promises " + std::to_string(*count) +
                              " flows, but the file has " + std::to_string(w.size()));
  }
  return w;
}

}  // namespace fe
