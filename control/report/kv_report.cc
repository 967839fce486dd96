#include "control/report/kv_report.h"

#include <cstdio>
#include <sstream>

#include "traffic/csv_field.h"
#include "traffic/kv_metrics.h"

namespace fe::control {
namespace {

using Json = nlohmann::ordered_json;

double Share(double share) { return share; }
double Ns(Time t) { return t.fractional_ns(); }

// Percentiles of no completed request are null, as summary.json's fct_ns of no flow: 0 would
// read as an instant transfer to a gate on p99.
template <typename T>
Json QuantilesJson(const std::optional<KvQuantiles<T>>& q, double (*number)(T)) {
  if (!q) return Json{{"p50", nullptr}, {"p99", nullptr}, {"p999", nullptr}, {"max", nullptr}};
  return Json{{"p50", number(q->p50)},
              {"p99", number(q->p99)},
              {"p999", number(q->p999)},
              {"max", number(q->max)}};
}

}  // namespace

std::string KvCsv(const Workload& w, std::span<const MessageOutcome> outcomes) {
  std::ostringstream out;
  out << "request,job,prefill_host,decode_host,input_tokens,kv_bytes,reused_bytes,sent_bytes,"
         "messages,arrival_ns,prefill_start_ns,prefill_done_ns,kv_ready_ns,queue_ns,prefill_ns,"
         "transfer_ns,queueing_share\n";
  char line[384];
  for (const KvRequestRecord& r : KvRequestRecords(w, outcomes)) {
    const KvRequest& q = r.spec;
    out << r.request << "," << CsvField(q.job < w.jobs.size() ? w.jobs[q.job].name : "") << ",";
    std::snprintf(line, sizeof(line), "%u,%u,%llu,%llu,%llu,%llu,%u,%.3f,%.3f,%.3f,",
                  q.prefill_host, q.decode_host, static_cast<unsigned long long>(q.tokens),
                  static_cast<unsigned long long>(q.kv_bytes),
                  static_cast<unsigned long long>(q.reused_bytes),
                  static_cast<unsigned long long>(r.sent_bytes), r.messages,
                  q.arrival.fractional_ns(), q.prefill_start.fractional_ns(),
                  q.prefill_done.fractional_ns());
    out << line;
    if (r.completed()) {
      std::snprintf(line, sizeof(line), "%.3f,%.3f,%.3f,%.3f,%.6f\n", r.kv_ready.fractional_ns(),
                    r.queue().fractional_ns(), r.prefill().fractional_ns(),
                    r.transfer().fractional_ns(), r.queueing_share());
    } else {
      std::snprintf(line, sizeof(line), ",%.3f,%.3f,,\n", r.queue().fractional_ns(),
                    r.prefill().fractional_ns());
    }
    out << line;
  }
  return out.str();
}

Json KvSummaryJson(const Workload& w, std::span<const MessageOutcome> outcomes) {
  Json jobs = Json::array();
  for (const KvJobSummary& s : SummarizeKv(KvRequestRecords(w, outcomes))) {
    jobs.push_back(Json{{"job", s.job < w.jobs.size() ? w.jobs[s.job].name : ""},
                        {"requests", s.requests},
                        {"requests_completed", s.completed},
                        {"kv_bytes", s.kv_bytes},
                        {"reused_bytes", s.reused_bytes},
                        {"sent_bytes", s.sent_bytes},
                        {"transfer_ns", QuantilesJson(s.transfer, Ns)},
                        {"kv_ready_ns", QuantilesJson(s.total, Ns)},
                        {"queueing_share", QuantilesJson(s.queueing_share, Share)}});
  }
  return jobs;
}

}  // namespace fe::control
