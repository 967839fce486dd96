#include "control/report/summary_jobs.h"

#include <algorithm>
#include <vector>

namespace fe::control {

nlohmann::ordered_json JobsJson(const Workload& workload,
                                std::span<const MessageOutcome> outcomes) {
  struct Totals {
    uint64_t messages = 0, bytes = 0, completed = 0;
    Time first_start = Time::Infinite();
    Time last_delivery = Time::Zero();
  };
  std::vector<Totals> totals(workload.jobs.size());
  for (uint32_t id = 0; id < workload.size(); ++id) {
    if (workload.job_of[id] >= totals.size()) continue;
    Totals& t = totals[workload.job_of[id]];
    const MessageOutcome& o = outcomes[id];
    ++t.messages;
    t.bytes += workload.flows[id].size_bytes;
    t.first_start = std::min(t.first_start, o.started);
    // Completed as everywhere in the outputs: its last ACK reached the sender.
    if (o.completed != Time::Infinite()) ++t.completed;
    if (o.delivered != Time::Infinite()) t.last_delivery = std::max(t.last_delivery, o.delivered);
  }
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (size_t j = 0; j < workload.jobs.size(); ++j) {
    const Job& job = workload.jobs[j];
    const Totals& t = totals[j];
    out.push_back(nlohmann::ordered_json{
        {"name", job.name},
        {"kind", job.kind},
        {"dscp", job.dscp},
        {"messages", t.messages},
        {"bytes", t.bytes},
        {"messages_completed", t.completed},
        {"first_start_ns", t.first_start == Time::Infinite()
                               ? nlohmann::ordered_json(nullptr)
                               : nlohmann::ordered_json(t.first_start.fractional_ns())},
        {"last_delivery_ns", t.completed == 0
                                 ? nlohmann::ordered_json(nullptr)
                                 : nlohmann::ordered_json(t.last_delivery.fractional_ns())}});
  }
  return out;
}

}  // namespace fe::control
