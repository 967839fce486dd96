// The topology's failure schedule and routing: their times within the scenario's range, then
// each target resolved against the built graph as the run will resolve it (control/failures),
// its verdict placed at the failure's line.
#include "control/failures.h"
#include "control/validation.h"

namespace fe::control {

using fabric_emu::Failure;
using fabric_emu::Flap;
using fabric_emu::Topology;

void ValidateFailures(Validation& v) {
  const Topology& topology = v.scenario.topology();
  const Site ts = v.root.Nested(fabric_emu::Scenario::kTopologyFieldNumber);
  const size_t errors_before = v.out.size();
  if (topology.has_routing()) {
    v.Duration(ts.Nested(Topology::kRoutingFieldNumber),
               fabric_emu::Routing::kReconvergeDelayNsFieldNumber,
               topology.routing().reconverge_delay_ns(), false);
  }
  for (int i = 0; i < topology.failure_size(); ++i) {
    const Failure& f = topology.failure(i);
    const Site fs = ts.Nested(Topology::kFailureFieldNumber, i);
    if (v.out.Present(fs, Failure::kAtNsFieldNumber, f.has_at_ns(), "the time, in ns")) {
      v.Duration(fs, Failure::kAtNsFieldNumber, f.at_ns(), false);
    }
    if (f.target_case() == Failure::TARGET_NOT_SET) {
      v.out.AddWhole(fs, "choose a target: link { a b }, engine { switch_name } or switch_name");
    }
    if (!f.has_flap()) continue;
    const Site ls = fs.Nested(Failure::kFlapFieldNumber);
    const Flap& flap = f.flap();
    if (v.out.Present(ls, Flap::kDownNsFieldNumber, flap.has_down_ns(),
                      "how long each flap stays down, in ns")) {
      v.Duration(ls, Flap::kDownNsFieldNumber, flap.down_ns(), true);
    }
    if (v.out.Present(ls, Flap::kPeriodNsFieldNumber, flap.has_period_ns(),
                      "the time from one flap to the next, in ns")) {
      v.Duration(ls, Flap::kPeriodNsFieldNumber, flap.period_ns(), true);
    }
    // The last flap must come back within the scenario's time range.
    const double last_up_ns = f.at_ns() + flap.period_ns() * (flap.count() - 1) + flap.down_ns();
    if (v.out.AtLeast(ls, Flap::kCountFieldNumber, flap.count(), 1) &&
        !(last_up_ns <= kMaxScenarioTimeNs)) {
      v.out.Add(ls, Flap::kCountFieldNumber,
                "the last flap comes back at " + Num(last_up_ns) + " ns, past the latest time " +
                    Num(kMaxScenarioTimeNs));
    }
  }
  // The targets, once the graph is known and the fields above hold (so that one fault is
  // reported once).
  if (!v.graph || v.out.size() != errors_before) return;
  if (StatusOr<ResolvedFailures> resolved = ResolveFailures(topology, *v.graph); !resolved.ok()) {
    ReportTopologyError(v, ts, resolved.status().message());
  }
}

}  // namespace fe::control
