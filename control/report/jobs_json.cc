#include "control/report/jobs_json.h"

namespace fe::control {
namespace {

using Json = nlohmann::ordered_json;

double Ns(Time t) { return static_cast<double>(t.ps()) / 1000.0; }

// Null when no iteration completed, as fct_ns when no flow did: 0 would read as instant.
Json TimesJson(const std::optional<IterationTimeQuantiles>& q) {
  if (!q) return Json{{"p50", nullptr}, {"p99", nullptr}, {"max", nullptr}};
  return Json{{"p50", Ns(q->p50)}, {"p99", Ns(q->p99)}, {"max", Ns(q->max)}};
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
