// The trace section: its fields, and the file itself, read and checked line by line against the
// fabric as a run would (so a bad line stops the run before it starts, with both lines named).
#include <cmath>
#include <string>

#include "control/scenario/trace_section.h"
#include "control/scenario/validate/validation.h"

namespace fe::control {

using fabric_emu::TraceFile;

double ValidateTrace(Validation& v, const TraceFile& t, const Site& s) {
  bool ok =
      v.out.Present(s, TraceFile::kFileFieldNumber, !t.file().empty(), "the trace file to replay");
  if (ok) {
    if (const StatusOr<TraceFile::Format> f = TraceFormatOf(t); !f.ok()) {
      v.out.Add(s, TraceFile::kFileFieldNumber, f.status().message());
      ok = false;
    }
  }
  if (!std::isfinite(t.time_scale()) || t.time_scale() <= 0) {
    v.out.Add(
        s, TraceFile::kTimeScaleFieldNumber,
        "must be a finite number > 0 (0.5 replays twice as fast), got " + Num(t.time_scale()));
    ok = false;
  }
  ok = v.Duration(s, TraceFile::kStartNsFieldNumber, t.start_ns(), false) && ok;
  if (t.host_size() > 0 && t.has_host_offset()) {
    v.out.Add(s, TraceFile::kHostOffsetFieldNumber,
              "give host_offset or a host list, not both: the list places every node");
    ok = false;
  }
  const int64_t hosts = v.graph ? static_cast<int64_t>(v.graph->num_hosts()) : 0;
  if (t.host_offset() < 0 || (v.graph && t.host_offset() >= hosts)) {
    v.out.Add(s, TraceFile::kHostOffsetFieldNumber,
              "must be a host index, where node 0 runs: in [0, " +
                  (v.graph ? std::to_string(hosts - 1) + "] (" + v.DescribeFabric() + ")"
                           : std::string("hosts-1]")) +
                  ", got " + std::to_string(t.host_offset()));
    ok = false;
  }
  for (int i = 0; i < t.host_size(); ++i) {
    if (t.host(i) < 0 || (v.graph && t.host(i) >= hosts)) {
      v.out.AddAt(s.Line(TraceFile::kHostFieldNumber, i), s.Path(TraceFile::kHostFieldNumber, i),
                  "must be a host index in [0, " +
                      (v.graph ? std::to_string(hosts - 1) + "] (" + v.DescribeFabric() + ")"
                               : std::string("hosts-1]")) +
                      ", got " + std::to_string(t.host(i)));
      ok = false;
    }
  }
  if (!ok || !v.graph) return 0;
  // The seed draws nothing in a trace: any will do.
  const StatusOr<Workload> w = TraceWorkload(t, *v.graph, 0, v.scenario_dir.string());
  if (!w.ok()) {
    v.out.Add(s, TraceFile::kFileFieldNumber, w.status().message());
    return 0;
  }
  // A header alone (or an ns-3 file of "0" flows) is not the file the user meant: its run would
  // send nothing, and say so only in the outputs.
  if (w.value().size() == 0) {
    v.out.Add(
        s, TraceFile::kFileFieldNumber,
        TracePath(t, v.scenario_dir.string()) + ": holds no flows: a run of it would send nothing");
    return 0;
  }
  return static_cast<double>(w.value().size());
}

}  // namespace fe::control
