// What a run made of its collective operations: collectives.csv, one row per operation, and a
// console table in nccl-tests' layout (one row per size, the mean over its iterations), so that
// figures read side by side with nccl-tests runs on real clusters.
#pragma once

#include <ostream>
#include <span>
#include <string>

#include "control/process/output_set.h"
#include "core/status.h"

#include "traffic/collective/metrics.h"
#include "traffic/workload.h"

namespace fe::control {

// Columns: job, op, algorithm, bytes, ranks, channels, start_ns, end_ns, time_us, algbw_gbps,
// busbw_gbps (bandwidths in Gb/s, 1e9 bits per second, as link rates are given). An operation
// that did not complete has empty end, time and bandwidth fields, and one that did not start an
// empty start too. Header only without operations.
std::string CollectivesCsv(const Workload& w, std::span<const CollectiveMeasure> measures);

// nccl-tests' columns: size (B), count (elements of 4-byte floats, per rank for all_gather,
// reduce_scatter and all_to_all as nccl-tests prints them), type, redop, root, time (us), algbw
// and busbw (GB/s, 1e9 bytes per second, as nccl-tests prints them); a block per job and
// operation kind, ending with the average bus bandwidth over the sizes that completed ("none"
// when none did). Empty without operations.
std::string CollectivesTable(const Workload& w, std::span<const CollectiveMeasure> measures);

// What a run writes of its collectives: collectives.csv into `outputs` and the table on
// `console`, both only when the workload has collective operations. Returns the file's name
// ("" if none).
StatusOr<std::string> WriteCollectiveReports(const Workload& w,
                                             std::span<const MessageOutcome> outcomes,
                                             OutputSet* outputs, std::ostream& console);

}  // namespace fe::control
