#include "control/report/jobs_json.h"

namespace fe::control {
namespace {

using Json = nlohmann::ordered_json;

// Null when no iteration completed, as fct_ns when no flow did: 0 would read as instant.
Json TimesJson(const std::optional<IterationTimeQuantiles>& q) {
  if (!q) return Json{{"p50", nullptr}, {"p99", nullptr}, {"max", nullptr}};
  return Json{{"p50", q->p50.fractional_ns()},
              {"p99", q->p99.fractional_ns()},
              {"max", q->max.fractional_ns()}};
}

}  // namespace

void AddIterationTimes(std::span<const JobTiming> timings, Json* jobs) {
  for (const JobTiming& t : timings) {
    (*jobs)[t.job]["iterations"] = {
        {"count", t.iterations.size()},
        {"completed", t.completed},
        {"time_ns", TimesJson(t.time)},
        {"communication_share",
         t.communication_share ? Json(*t.communication_share) : Json(nullptr)}};
  }
}

}  // namespace fe::control
