#include "control/report/jobs_json.h"

namespace fe::control {
namespace {

double Ns(Time t) { return static_cast<double>(t.ps()) / 1000.0; }

}  // namespace

void AddIterationTimes(std::span<const JobTiming> timings, nlohmann::ordered_json* jobs) {
  for (const JobTiming& t : timings) {
    (*jobs)[t.job]["iterations"] = {
        {"count", t.iterations.size()},
        {"completed", t.completed},
        {"time_ns", {{"p50", Ns(t.p50)}, {"p99", Ns(t.p99)}, {"max", Ns(t.max)}}},
        {"communication_share", t.communication_share}};
  }
}

}  // namespace fe::control
