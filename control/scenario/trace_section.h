// The trace section of a scenario: a trace file replayed as a workload (docs/workloads.md, "Trace
// replay and export").
#pragma once

#include <cstdint>
#include <string>

#include "core/status.h"
#include "proto/trace.pb.h"
#include "topology/graph.h"
#include "traffic/trace/file.h"
#include "traffic/workload.h"

namespace fe::control {

// The format the section names, or the one its file's extension implies (.cm, .txt, .csv);
// an error for another extension.
StatusOr<fabric_emu::TraceFile::Format> TraceFormatOf(const fabric_emu::TraceFile& t);

// Where the file's nodes and times land on `graph`, as the section says.
TraceParams TraceParamsOf(const fabric_emu::TraceFile& t, const topo::Graph& graph,
                          const std::string& path);

// The file's path: relative names start at scenario_dir.
std::string TracePath(const fabric_emu::TraceFile& t, const std::string& scenario_dir);

// Reads and replays the file: errors are "file:line: reason". Traces draw nothing at random:
// `seed` is unused. One job per job of the file (htsim and ns-3 files: one, unnamed, for the
// scenario to name).
StatusOr<Workload> TraceWorkload(const fabric_emu::TraceFile& t, const topo::Graph& graph,
                                 uint64_t seed, const std::string& scenario_dir);

}  // namespace fe::control
