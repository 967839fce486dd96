#include "control/report/jobs_json.h"

namespace fe::control {
namespace {

double Ns(Time t) { return static_cast<double>(t.ps()) / 1000.0; }

}  // namespace

nlohmann::ordered_json JobsJson(const Workload& w, std::span<const JobTiming> jobs) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const JobTiming& job : jobs) {
    nlohmann::ordered_json j;
    j["job"] = w.jobs[job.job].name;
    j["kind"] = w.jobs[job.job].kind;
    j["iterations"] = job.iterations.size();
    j["iterations_completed"] = job.completed;
    j["iteration_time_ns"] = {{"p50", Ns(job.p50)}, {"p99", Ns(job.p99)}, {"max", Ns(job.max)}};
    j["communication_share"] = job.communication_share;
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace fe::control
