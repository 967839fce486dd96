// Queue-depth samples for plots: every interval of virtual time, the depth of each switch egress
// queue that has held a packet so far (so a queue that drains shows its fall to zero, and the
// queues traffic never reached stay out of the file). One scheduler event per interval, none once
// every message has completed; samples are a pure function of the scenario and seed.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/scheduler.h"
#include "core/units.h"
#include "dataplane/fabric.h"
#include "topology/graph.h"

namespace fe::control {

struct QueueSample {
  Time at;
  topo::NodeId node;  // the switch
  uint16_t port;      // its local port
  uint8_t queue;      // priority
  uint32_t depth_bytes;
};

class QueueSampler final : public EventHandler {
 public:
  // fabric must outlive the sampler.
  QueueSampler(Scheduler* sched, const dp::Fabric* fabric, Time interval);

  // Schedules the first sample one interval from now.
  void Start();
  void OnEvent(uint64_t arg) override;

  const std::vector<QueueSample>& samples() const { return samples_; }

 private:
  Scheduler* sched_;
  const dp::Fabric* fabric_;
  Time interval_;
  std::vector<QueueSample> samples_;
};

// queues.csv: a header, then one `time_ns,switch,port,queue,depth_bytes` row per sample in time
// order, switches, ports and queues ascending within a time; switches by their graph name.
std::string QueuesCsv(std::span<const QueueSample> samples, const topo::Graph& graph);

}  // namespace fe::control
