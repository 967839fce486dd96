// Per-flow completion records and their aggregate statistics: flow completion time (FCT) and
// slowdown percentiles, overall and by flow-size bucket. Writers (CSV, JSON) live in control/;
// this file only computes numbers.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/units.h"
#include "traffic/flow.h"

namespace fe {

struct FlowRecord {
  uint32_t id = 0;
  uint32_t src_host = 0;
  uint32_t dst_host = 0;
  uint64_t size_bytes = 0;
  Time start;
  Time finish;
  // The FCT the flow would have alone on an idle fabric, computed by the caller (base RTT plus
  // wire bytes at line rate). Zero means unknown: the flow is left out of slowdown statistics.
  Time ideal_fct;
  uint64_t cnps_received = 0;
  uint64_t retransmitted_packets = 0;
  // False for a flow the run stopped before it was delivered: it has no finish and no FCT, and
  // the summary's statistics leave it out.
  bool completed = true;

  Time fct() const { return finish - start; }
  bool operator==(const FlowRecord&) const = default;
};

FlowRecord MakeFlowRecord(const Flow& flow, Time finish, Time ideal_fct);

// Percentiles by the nearest-rank definition: the p-th percentile of n sorted values is the value
// of rank ceil(p/100 x n) (1-based, at least 1), so it is always an observed value and p100 is
// the maximum. Computed in integers, so no rounding can move the rank.
struct FctStats {
  uint64_t count = 0;  // zero: the other fields are zero
  Time p50, p95, p99, max;
};

struct SlowdownStats {
  uint64_t count = 0;  // zero: the other fields are zero
  double p50 = 0, p95 = 0, p99 = 0, max = 0;
};

// Flows with lower_bytes <= size_bytes < upper_bytes (upper_bytes 0: no upper bound).
struct SizeBucketSlowdown {
  uint64_t lower_bytes = 0;
  uint64_t upper_bytes = 0;
  SlowdownStats slowdown;
};

struct FlowSummary {
  uint64_t flows_completed = 0;
  uint64_t bytes_completed = 0;
  uint64_t cnps_received = 0;
  uint64_t retransmitted_packets = 0;
  FctStats fct;
  // Slowdown = FCT / ideal FCT, not clamped at 1 (a value below 1 means the ideal is wrong).
  SlowdownStats slowdown;
  std::vector<SizeBucketSlowdown> slowdown_by_size;  // ascending, empty buckets included
};

// Decimal bucket edges as in the HPCC and ConWeave FCT-slowdown plots: <10 KB, 10-100 KB,
// 100 KB-1 MB, >= 1 MB (1 KB = 1,000 bytes, matching the flow-size CDF files).
inline constexpr uint64_t kDefaultSizeBucketEdgesBytes[] = {10'000, 100'000, 1'000'000};

// The element of rank ceil(numerator/denominator x n) of an ascending, non-empty range: p99.9 is
// (999, 1000).
template <typename T>
T NearestRankQuantile(std::span<const T> sorted, uint64_t numerator, uint64_t denominator) {
  const uint64_t n = sorted.size();
  const uint64_t rank = (numerator * n + denominator - 1) / denominator;
  return sorted[rank == 0 ? 0 : rank - 1];
}

// The element of rank ceil(percent/100 x n) of an ascending, non-empty range.
template <typename T>
T NearestRankPercentile(std::span<const T> sorted, uint32_t percent) {
  return NearestRankQuantile(sorted, percent, 100);
}

class FlowMetrics {
 public:
  void Add(const FlowRecord& record) { records_.push_back(record); }

  // The records ordered by id, ties broken by every other field, so output files do not depend
  // on the order in which flows completed.
  std::vector<FlowRecord> SortedRecords() const;

  // Over the completed records. bucket_edges_bytes must be strictly ascending; n edges make
  // n + 1 buckets. The result depends only on the set of records, not on their order.
  FlowSummary Summarize(
      std::span<const uint64_t> bucket_edges_bytes = kDefaultSizeBucketEdgesBytes) const;

 private:
  std::vector<FlowRecord> records_;
};

}  // namespace fe
