// The native trace format: a CSV file with a header row, one message per row, that carries
// everything a workload's run depends on, so that any scenario's workload can be written out
// (`fabric-emu export`) and replayed to the same flows.csv.
//
//   id,src,dst,bytes,start_ns,after,delay_ns,dscp,job
//   0,0,1,1048576,0,,0,26,allreduce
//   1,1,2,1048576,0,0,1500.5,26,allreduce
//
// id: a whole number naming the row, unique; src, dst: node numbers (host indices unless the
// scenario maps them); bytes: the message size; start_ns: the earliest start; after: the ids of
// the messages it waits for, separated by spaces (any order, earlier or later rows); delay_ns:
// the time from the last of them delivered to its start; dscp: 0-63; job: the job's name (every
// row of a job carries the job's dscp). Columns may come in any order; id, src, dst and bytes are
// demanded, start_ns, after and delay_ns default to 0, nothing and 0; job and dscp come together,
// or neither (every row is then the section's job, unnamed here: the scenario names it). Lines
// starting with '#' and blank lines are skipped. A field holding a comma or a quote is quoted as
// in RFC 4180 ("a ""b"", c").
#pragma once

#include <string>
#include <string_view>

#include "core/status.h"
#include "traffic/trace/file.h"
#include "traffic/workload.h"

namespace fe {

// The header the writer puts first.
inline constexpr std::string_view kNativeTraceHeader =
    "id,src,dst,bytes,start_ns,after,delay_ns,dscp,job";

// Message i is the i-th row; jobs in order of their first row, of kind "trace" (without job and
// dscp columns: params.job alone).
StatusOr<Workload> ParseNativeTrace(std::string_view text, const TraceParams& params);

// The workload in the native format: the header, then row i for message i with id i, times in
// ns with the picoseconds as up to three decimals (exact), each message's job by name and dscp.
// Refuses an empty job name, or one holding a line break.
StatusOr<std::string> NativeTraceCsv(const Workload& w);

}  // namespace fe
