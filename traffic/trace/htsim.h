// htsim connection matrices (.cm), as htsim's ConnectionMatrix::load reads them:
//
//   Nodes 16
//   Connections 3
//   Triggers 1
//   0->1 id 1 start 0 size 1000000 send_done_trigger 1
//   2->3 id 2 start 2.5 size 1000000 send_done_trigger 1
//   1->2 id 3 trigger 1 size 500000
//   trigger id 1 barrier count 2
//
// Each connection is one message from node src to node dst: `size` bytes, starting at `start`
// microseconds or when its `trigger` fires. A trigger fires when the connections that name it as
// `send_done_trigger` or `recv_done_trigger` are done: a `oneshot` trigger when its one such
// connection is, a `barrier` when all `count` are. Done is delivery here (the last byte at the
// receiver); htsim fires send_done_trigger a little later, when the sender has its last ACK.
// What htsim cannot replay faithfully as dependencies is refused with the line and the reason:
// `multishot` triggers (they start their k-th target at the k-th activation, whichever connection
// it is), a oneshot trigger activated twice, a barrier whose activations differ from its count, a
// trigger that targets connections but is never activated, and `failure` lines (the scenario's
// topology holds failures). docs/workloads.md maps every token.
#pragma once

#include <string_view>

#include "core/status.h"
#include "traffic/trace/file.h"
#include "traffic/workload.h"

namespace fe {

// Message i is the i-th connection line of the file; one job, params.job.
StatusOr<Workload> ParseHtsimTrace(std::string_view text, const TraceParams& params);

}  // namespace fe
