#include "control/report/credit_json.h"

namespace fe::control {

nlohmann::ordered_json CreditLinksJson(const dp::Fabric& fabric, Time now) {
  uint64_t ends = 0;
  dp::CreditCounters sum;
  Time blocked;
  for (size_t i = 0; i < fabric.num_ports(); ++i) {
    const dp::EgressPort& port = fabric.port_at(i);
    const dp::CreditPort* c = port.credit_port();
    if (c == nullptr) continue;
    ++ends;
    sum.updates_sent += c->counters().updates_sent;
    sum.updates_lost += c->counters().updates_lost;
    sum.resyncs += c->counters().resyncs;
    sum.overdrafts += c->counters().overdrafts;
    for (int q = 0; q < dp::kNumQueues; ++q) blocked += port.CreditBlockedTime(q, now);
  }
  if (ends == 0) return nullptr;
  uint64_t overruns = 0;
  for (size_t s = 0; s < fabric.num_switches(); ++s) {
    overruns += fabric.switch_at(s).buffer().credit_overruns();
  }
  return nlohmann::ordered_json{{"link_ends", ends},
                                {"updates_sent", sum.updates_sent},
                                {"updates_lost", sum.updates_lost},
                                {"resyncs", sum.resyncs},
                                {"overdrafts", sum.overdrafts},
                                {"buffer_overruns", overruns},
                                {"blocked_time_ns", blocked.fractional_ns()}};
}

}  // namespace fe::control
