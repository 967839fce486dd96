#include "control/scenario/trace_section.h"

#include <filesystem>

#include "control/scenario/validate/scenario_validator.h"
#include "control/scenario/validate/validation.h"
#include "core/units.h"
#include "traffic/trace/htsim.h"
#include "traffic/trace/native.h"
#include "traffic/trace/ns3.h"

namespace fe::control {

using fabric_emu::TraceFile;

StatusOr<TraceFile::Format> TraceFormatOf(const TraceFile& t) {
  if (t.format() != TraceFile::FORMAT_UNSPECIFIED) return t.format();
  const std::string ext = std::filesystem::path(t.file()).extension().string();
  if (ext == ".cm") return TraceFile::HTSIM;
  if (ext == ".txt") return TraceFile::HPCC;
  if (ext == ".csv") return TraceFile::NATIVE;
  return Status::Error("cannot tell the format of '" + t.file() +
                       "' from its extension: name it .cm (htsim), .txt (HPCC/ns-3) or .csv "
                       "(native), or set format");
}

TraceParams TraceParamsOf(const TraceFile& t, const topo::Graph& graph, const std::string& path) {
  TraceParams p;
  p.source = path;
  p.hosts = static_cast<uint32_t>(graph.num_hosts());
  p.node_hosts.assign(t.host().begin(), t.host().end());
  p.host_offset = static_cast<uint32_t>(t.host_offset());
  p.time_scale = t.time_scale();
  p.start = Time::FromNs(t.start_ns());
  p.max_time = Time::FromNs(kMaxScenarioTimeNs);
  p.max_message_bytes = static_cast<uint64_t>(kMaxMessageBytes);
  return p;
}

std::string TracePath(const TraceFile& t, const std::string& scenario_dir) {
  return (std::filesystem::path(scenario_dir) / t.file()).string();  // absolute stays
}

StatusOr<Workload> TraceWorkload(const TraceFile& t, const topo::Graph& graph, uint64_t seed,
                                 const std::string& scenario_dir) {
  const StatusOr<TraceFile::Format> format = TraceFormatOf(t);
  if (!format.ok()) return format.status();
  const std::string path = TracePath(t, scenario_dir);
  StatusOr<std::string> text = ReadTraceText(path);
  if (!text.ok()) return text.status();
  const TraceParams params = TraceParamsOf(t, graph, path);
  switch (format.value()) {
    case TraceFile::HTSIM:
      return ParseHtsimTrace(*text, params);
    case TraceFile::HPCC:
      return ParseNs3FlowFile(*text, params);
    case TraceFile::NATIVE:
    case TraceFile::FORMAT_UNSPECIFIED:  // TraceFormatOf never returns it
      return ParseNativeTrace(*text, params);
  }
  return Status::Error("unknown trace format");
}

}  // namespace fe::control
