// What the trace readers share: where a trace's nodes and times land in the run (TraceParams),
// reading a trace file with its size cap, and the finishing check of a read workload. The readers
// themselves: htsim.h (htsim connection matrices), ns3.h (HPCC/ns-3 flow files),
// native.h (the native CSV, and its writer). docs/workloads.md describes the formats.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "core/units.h"
#include "traffic/workload.h"

namespace fe {

// A trace file larger than this is refused before it is read: 64 MiB holds a few million
// messages, more than a run takes (the fabric's cap is 2^24 QPs).
inline constexpr int64_t kMaxTraceFileBytes = int64_t{64} << 20;

struct TraceParams {
  std::string source;  // the file name errors start with ("trace.cm:12: ...")
  uint32_t hosts = 0;  // hosts of the topology: a node must land on one of them
  // Host of trace node n: node_hosts[n] when the list is given (nodes past its end are refused),
  // else n + host_offset.
  std::vector<uint32_t> node_hosts;
  uint32_t host_offset = 0;
  // Every time of the file (starts, and the native format's delays) is multiplied by it: 0.5
  // replays twice as fast. Then `start` is added to every start.
  double time_scale = 1;
  Time start;
  Time max_time = Time::Infinite();  // a later start or delay is refused
  uint64_t max_message_bytes = uint64_t{1} << 31;
  // The job of the formats that name none (htsim, ns-3), and of native rows without a job or
  // dscp column.
  Job job{"", "trace", 26};
};

// The whole file at `path`, if it is a regular file of at most kMaxTraceFileBytes. Errors start
// with the path.
StatusOr<std::string> ReadTraceText(const std::string& path);

// "source:line: reason".
Status TraceLineError(const TraceParams& params, uint32_t line, const std::string& reason);

// The host trace node `node` runs on; false with the reason when it lands on none.
bool TraceHost(const TraceParams& params, uint64_t node, uint32_t* host, std::string* reason);

// A time of the file, as a count of picoseconds before scaling, scaled by time_scale; false when
// the result passes max_time. `what` names the time in the reason ("start", "delay").
bool ScaledTraceTime(const TraceParams& params, uint64_t file_ps, const char* what, Time* out,
                     std::string* reason);

// A message size of the file, 1 to max_message_bytes; false with the reason otherwise.
bool TraceMessageBytes(const TraceParams& params, uint64_t bytes, std::string* reason);

// CheckDependencies on a read workload, with the refused message's line of the file:
// line_of[id] is the line message id came from.
Status CheckTraceDependencies(const Workload& w, std::span<const uint32_t> line_of,
                              const TraceParams& params);

}  // namespace fe
