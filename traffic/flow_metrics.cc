#include "traffic/flow_metrics.h"

#include <algorithm>
#include <tuple>
#include <utility>

namespace fe {
namespace {

FctStats ComputeFctStats(std::vector<Time> fcts) {
  FctStats s;
  if (fcts.empty()) return s;
  std::sort(fcts.begin(), fcts.end());
  const std::span<const Time> sorted(fcts);
  s.count = fcts.size();
  s.p50 = NearestRankPercentile(sorted, 50);
  s.p95 = NearestRankPercentile(sorted, 95);
  s.p99 = NearestRankPercentile(sorted, 99);
  s.max = fcts.back();
  return s;
}

SlowdownStats ComputeSlowdownStats(std::vector<double> slowdowns) {
  SlowdownStats s;
  if (slowdowns.empty()) return s;
  std::sort(slowdowns.begin(), slowdowns.end());
  const std::span<const double> sorted(slowdowns);
  s.count = slowdowns.size();
  s.p50 = NearestRankPercentile(sorted, 50);
  s.p95 = NearestRankPercentile(sorted, 95);
  s.p99 = NearestRankPercentile(sorted, 99);
  s.max = slowdowns.back();
  return s;
}

auto SortKey(const FlowRecord& r) {
  return std::make_tuple(r.id, r.src_host, r.dst_host, r.size_bytes, r.start, r.completed, r.finish,
                         r.ideal_fct, r.cnps_received, r.retransmitted_packets);
}

}  // namespace

FlowRecord MakeFlowRecord(const Flow& flow, Time finish, Time ideal_fct) {
  return FlowRecord{.id = flow.id,
                    .src_host = flow.src_host,
                    .dst_host = flow.dst_host,
                    .size_bytes = flow.size_bytes,
                    .start = flow.start,
                    .finish = finish,
                    .ideal_fct = ideal_fct};
}

std::vector<FlowRecord> FlowMetrics::SortedRecords() const {
  std::vector<FlowRecord> sorted = records_;
  const auto before = [](const FlowRecord& a, const FlowRecord& b) {
    return SortKey(a) < SortKey(b);
  };
  // A run adds its records by id: one pass finds them in order, and the n log n comparisons of
  // the sort (a few seconds over the millions of flows of a long run) are left out.
  if (!std::is_sorted(sorted.begin(), sorted.end(), before)) {
    std::sort(sorted.begin(), sorted.end(), before);
  }
  return sorted;
}

FlowSummary FlowMetrics::Summarize(std::span<const uint64_t> bucket_edges_bytes) const {
  FlowSummary summary;
  std::vector<Time> fcts;
  std::vector<double> slowdowns;
  std::vector<std::vector<double>> bucket_slowdowns(bucket_edges_bytes.size() + 1);
  fcts.reserve(records_.size());
  for (const FlowRecord& r : records_) {
    if (!r.completed) continue;
    ++summary.flows_completed;
    summary.bytes_completed += r.size_bytes;
    summary.cnps_received += r.cnps_received;
    summary.retransmitted_packets += r.retransmitted_packets;
    fcts.push_back(r.fct());
    if (r.ideal_fct <= Time::Zero()) continue;
    const double slowdown = static_cast<double>(r.fct().ps()) / r.ideal_fct.ps();
    slowdowns.push_back(slowdown);
    const size_t bucket =
        std::upper_bound(bucket_edges_bytes.begin(), bucket_edges_bytes.end(), r.size_bytes) -
        bucket_edges_bytes.begin();
    bucket_slowdowns[bucket].push_back(slowdown);
  }
  summary.fct = ComputeFctStats(std::move(fcts));
  summary.slowdown = ComputeSlowdownStats(std::move(slowdowns));
  for (size_t b = 0; b < bucket_slowdowns.size(); ++b) {
    summary.slowdown_by_size.push_back(
        SizeBucketSlowdown{.lower_bytes = b == 0 ? 0 : bucket_edges_bytes[b - 1],
                           .upper_bytes = b < bucket_edges_bytes.size() ? bucket_edges_bytes[b] : 0,
                           .slowdown = ComputeSlowdownStats(std::move(bucket_slowdowns[b]))});
  }
  return summary;
}

}  // namespace fe
