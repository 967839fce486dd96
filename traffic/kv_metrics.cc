#include "traffic/kv_metrics.h"

#include <algorithm>
#include <map>

#include "traffic/flow_metrics.h"

namespace fe {
namespace {

template <typename T>
std::optional<KvQuantiles<T>> Quantiles(std::vector<T> values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const std::span<const T> sorted(values);
  return KvQuantiles<T>{NearestRankQuantile(sorted, 50, 100), NearestRankQuantile(sorted, 99, 100),
                        NearestRankQuantile(sorted, 999, 1000), sorted.back()};
}

}  // namespace

std::vector<KvRequestRecord> KvRequestRecords(const Workload& w,
                                              std::span<const MessageOutcome> outcomes) {
  std::vector<KvRequestRecord> records(w.requests.size());
  for (uint32_t r = 0; r < w.requests.size(); ++r) {
    records[r].request = r;
    records[r].spec = w.requests[r];
    records[r].kv_ready = w.requests[r].prefill_done;  // until a message says later
  }
  for (uint32_t m = 0; m < w.size(); ++m) {
    const uint32_t r = w.request_of[m];
    if (r == kNoIndex) continue;
    KvRequestRecord& rec = records[r];
    ++rec.messages;
    rec.sent_bytes += w.flows[m].size_bytes;
    const Time delivered = m < outcomes.size() ? outcomes[m].delivered : Time::Infinite();
    rec.kv_ready = std::max(rec.kv_ready, delivered);
  }
  return records;
}

std::vector<KvJobSummary> SummarizeKv(std::span<const KvRequestRecord> records) {
  struct Values {
    KvJobSummary summary;
    std::vector<Time> transfer, total;
    std::vector<double> share;
  };
  std::map<uint32_t, Values> by_job;
  for (const KvRequestRecord& r : records) {
    Values& v = by_job[r.spec.job];
    v.summary.job = r.spec.job;
    ++v.summary.requests;
    v.summary.kv_bytes += r.spec.kv_bytes;
    v.summary.reused_bytes += r.spec.reused_bytes;
    v.summary.sent_bytes += r.sent_bytes;
    if (!r.completed()) continue;
    ++v.summary.completed;
    v.transfer.push_back(r.transfer());
    v.total.push_back(r.total());
    v.share.push_back(r.queueing_share());
  }
  std::vector<KvJobSummary> out;
  for (auto& [job, v] : by_job) {
    v.summary.transfer = Quantiles(std::move(v.transfer));
    v.summary.total = Quantiles(std::move(v.total));
    v.summary.queueing_share = Quantiles(std::move(v.share));
    out.push_back(v.summary);
  }
  return out;
}

}  // namespace fe
