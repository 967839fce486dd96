#include "control/report/queue_sampler.h"

#include <cinttypes>
#include <cstdio>

namespace fe::control {

QueueSampler::QueueSampler(Scheduler* sched, const dp::Fabric* fabric, Time interval)
    : sched_(sched), fabric_(fabric), interval_(interval) {}

void QueueSampler::Start() { sched_->After(interval_, this); }

void QueueSampler::OnEvent(uint64_t /*arg*/) {
  const Time now = sched_->Now();
  for (size_t i = 0; i < fabric_->num_switches(); ++i) {
    const dp::Switch& sw = fabric_->switch_at(i);
    for (uint16_t p = 0; p < sw.num_ports(); ++p) {
      const dp::EgressPort& port = fabric_->port(sw.node(), p);
      for (uint8_t q = 0; q < dp::kNumQueues; ++q) {
        if (port.max_queue_bytes(q) == 0) continue;
        samples_.push_back(QueueSample{now, sw.node(), p, q, port.queue_bytes(q)});
      }
    }
  }
  if (fabric_->MessagesUnfinished() > 0) sched_->After(interval_, this);
}

std::string QueuesCsv(std::span<const QueueSample> samples, const topo::Graph& graph) {
  std::string out = "time_ns,switch,port,queue,depth_bytes\n";
  char line[160];
  for (const QueueSample& s : samples) {
    std::snprintf(line, sizeof(line), "%.3f,%s,%u,%u,%" PRIu32 "\n", s.at.fractional_ns(),
                  graph.node(s.node).name.c_str(), static_cast<unsigned>(s.port),
                  static_cast<unsigned>(s.queue), s.depth_bytes);
    out += line;
  }
  return out;
}

}  // namespace fe::control
