// The flow files of the HPCC ns-3 simulator (alibaba-edu/High-Precision-Congestion-Control,
// mix/flow.txt), as its scratch/third.cc reads them: the first line is the number of flows N,
// then one flow per line,
//
//   src dst pg dport size_bytes start_s
//   2 1 3 100 200000000 2.000001
//
// nodes src and dst (ns-3 node ids, hosts and switches numbered together), the priority group pg
// (0-7) and destination UDP port dport, which the replay checks and leaves to the scenario (the
// section's dscp sets the class; the NIC picks ports per QP), the size in bytes and the start in
// seconds. Like the simulator, the reader takes the first N flows and ignores what follows (the
// project's own sample ends in a description of the format); fewer than N is an error. Unlike it,
// flows need not come in order of start time. Flows are independent: no dependencies.
#pragma once

#include <string_view>

#include "core/status.h"
#include "traffic/trace/file.h"
#include "traffic/workload.h"

namespace fe {

// Message i is the i-th flow of the file; one job, params.job.
StatusOr<Workload> ParseNs3FlowFile(std::string_view text, const TraceParams& params);

}  // namespace fe
