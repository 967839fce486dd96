// The KV-cache outputs of a run: kv.csv, one row per request, and the kv_cache array of
// summary.json, one object per KV-cache job. Both come from the workload and its messages'
// outcomes alone (traffic/kv_metrics.h defines every column), so they are byte-identical for a
// scenario and seed.
#pragma once

#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "traffic/workload.h"

namespace fe::control {

// A header and one row per request of the workload (none: the header alone). Times in ns to the
// picosecond; a request whose KV cache the run did not deliver has empty kv_ready_ns,
// transfer_ns and queueing_share.
std::string KvCsv(const Workload& w, std::span<const MessageOutcome> outcomes);

// Per job with requests: request and byte counts, and p50/p99/p999/max of transfer_ns,
// kv_ready_ns (arrival to KV cache on the decode side) and queueing_share over the completed
// requests, each null when none completed. Empty when the workload has no request.
nlohmann::ordered_json KvSummaryJson(const Workload& w, std::span<const MessageOutcome> outcomes);

}  // namespace fe::control
