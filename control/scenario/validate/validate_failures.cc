// The topology's failure schedule and routing, resolved against the built graph exactly as the
// run will resolve them (control/failures: targets, times, flaps), the verdict placed at its
// line. Without a graph there is nothing to resolve against: the topology's own error stands.
#include "control/scenario/failure_schedule.h"
#include "control/scenario/validate/validation.h"

namespace fe::control {

void ValidateFailures(Validation& v) {
  const fabric_emu::Topology& topology = v.scenario.topology();
  if (!v.graph || (topology.failure_size() == 0 && !topology.has_routing())) return;
  std::vector<Status> errors;
  if (ResolveFailures(topology, *v.graph, &errors).ok()) return;
  for (const Status& e : errors) {
    ReportTopologyError(v, v.root.Nested(fabric_emu::Scenario::kTopologyFieldNumber), e);
  }
}

}  // namespace fe::control
