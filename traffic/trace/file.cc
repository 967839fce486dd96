#include "traffic/trace/file.h"

#include <charconv>
#include <cmath>
#include <sstream>

#include "core/file_text.h"

namespace fe {

StatusOr<std::string> ReadTraceText(const std::string& path) {
  return ReadCappedFile(path, kMaxTraceFileBytes, "a trace file", path);
}

Status TraceLineError(const TraceParams& params, uint32_t line, const std::string& reason) {
  return Status::Error(params.source + ":" + std::to_string(line) + ": " + reason);
}

bool TraceHost(const TraceParams& params, uint64_t node, uint32_t* host, std::string* reason) {
  uint64_t h = 0;
  if (!params.node_hosts.empty()) {
    if (node >= params.node_hosts.size()) {
      *reason = "node " + std::to_string(node) + " has no host: the scenario's host list maps " +
                "nodes 0 to " + std::to_string(params.node_hosts.size() - 1);
      return false;
    }
    h = params.node_hosts[node];
  } else {
    h = node + params.host_offset;
  }
  if (h >= params.hosts) {
    *reason = "node " + std::to_string(node) + " runs on host " + std::to_string(h) +
              ", but the topology has " + std::to_string(params.hosts) + " hosts (0 to " +
              std::to_string(params.hosts == 0 ? 0 : params.hosts - 1) + ")";
    return false;
  }
  *host = static_cast<uint32_t>(h);
  return true;
}

bool ScaledTraceTime(const TraceParams& params, uint64_t file_ps, const char* what, Time* out,
                     std::string* reason) {
  // Exact when unscaled; a scaled time rounds to the nearest picosecond.
  const long double ps = params.time_scale == 1
                             ? static_cast<long double>(file_ps)
                             : std::round(static_cast<long double>(file_ps) * params.time_scale);
  if (ps > static_cast<long double>(params.max_time.ps())) {
    *reason = std::string(what) + " is past the latest time a run may reach, " +
              std::to_string(params.max_time.ps() / 1000) + " ns";
    return false;
  }
  *out = params.time_scale == 1 ? Time::FromPs(static_cast<int64_t>(file_ps))
                                : Time::FromPs(static_cast<int64_t>(ps));
  return true;
}

bool TraceMessageBytes(const TraceParams& params, uint64_t bytes, std::string* reason) {
  if (bytes >= 1 && bytes <= params.max_message_bytes) return true;
  *reason = "size must be from 1 to " + std::to_string(params.max_message_bytes) +
            " bytes (the largest message of the InfiniBand transport), got " +
            std::to_string(bytes);
  return false;
}

Status CheckTraceDependencies(const Workload& w, std::span<const uint32_t> line_of,
                              const TraceParams& params) {
  const Status s = CheckDependencies(w);
  if (s.ok()) return s;
  // The message names the refused message first: "message <id> ...".
  const std::string& m = s.message();
  const std::string prefix = "message ";
  uint32_t id = 0;
  if (m.rfind(prefix, 0) == 0) {
    const char* first = m.data() + prefix.size();
    const auto [end, ec] = std::from_chars(first, m.data() + m.size(), id);
    if (ec == std::errc() && id < line_of.size()) return TraceLineError(params, line_of[id], m);
  }
  return Status::Error(params.source + ": " + m);
}

}  // namespace fe
