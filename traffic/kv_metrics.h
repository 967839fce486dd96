// What happened to each KV-cache request of a run, from the workload and the messages' outcomes,
// and the statistics of the requests of each job. Writers (kv.csv, summary.json) live in
// control/report/.
//
// A request's KV cache is on the decode side (kv_ready) when the last byte of its last message is
// delivered; a request that sent nothing (its whole input reused) has it when prefill ends. Of the
// time from arrival to kv_ready:
//   queue    = prefill_start - arrival   (waiting for a busy prefill endpoint)
//   prefill  = prefill_done - prefill_start
//   transfer = kv_ready - prefill_done   (the part of the transfer prefill does not hide)
// and the queueing share is queue / (kv_ready - arrival), 0 when that is 0.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/units.h"
#include "traffic/workload.h"

namespace fe {

struct KvRequestRecord {
  uint32_t request = 0;  // index in Workload::requests
  KvRequest spec;
  uint32_t messages = 0;
  uint64_t sent_bytes = 0;           // summed over its messages: kv_bytes - reused_bytes
  Time kv_ready = Time::Infinite();  // Infinite: a message was not delivered (the run stopped)

  bool completed() const { return kv_ready != Time::Infinite(); }
  Time queue() const { return spec.prefill_start - spec.arrival; }
  Time prefill() const { return spec.prefill_done - spec.prefill_start; }
  Time transfer() const { return kv_ready - spec.prefill_done; }
  Time total() const { return kv_ready - spec.arrival; }
  double queueing_share() const {
    return total() > Time::Zero()
               ? static_cast<double>(queue().ps()) / static_cast<double>(total().ps())
               : 0.0;
  }
};

// One record per request, in request order. outcomes[i] is message i's.
std::vector<KvRequestRecord> KvRequestRecords(const Workload& w,
                                              std::span<const MessageOutcome> outcomes);

// Nearest-rank percentiles (traffic/flow_metrics.h) over the completed requests.
template <typename T>
struct KvQuantiles {
  T p50{}, p99{}, p999{}, max{};
};

struct KvJobSummary {
  uint32_t job = 0;
  uint64_t requests = 0;
  uint64_t completed = 0;  // the statistics below are over these
  uint64_t kv_bytes = 0;   // the three byte counts are over all requests
  uint64_t reused_bytes = 0;
  uint64_t sent_bytes = 0;
  // None when no request completed: a percentile of nothing is no figure, where 0 would read as
  // an instant transfer.
  std::optional<KvQuantiles<Time>> transfer;
  std::optional<KvQuantiles<Time>> total;  // arrival to kv_ready
  std::optional<KvQuantiles<double>> queueing_share;
};

// One summary per job that has requests, in job order.
std::vector<KvJobSummary> SummarizeKv(std::span<const KvRequestRecord> records);

}  // namespace fe
