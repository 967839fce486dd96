#include "control/scenario/failure_schedule.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "control/scenario/validate/scenario_validator.h"
#include "core/units.h"
#include "dataplane/message.h"
#include "dataplane/packet.h"
#include "topology/engines.h"
#include "topology/routes.h"

namespace fe::control {

namespace {

// Flaps are unrolled into changes, each kept for the summary: a bound on them bounds memory.
constexpr int32_t kMaxFlapCount = 100000;

// A time field in [0, kMaxScenarioTimeNs] ns, or `positive` ones above 0.
Status CheckTimeNs(double ns, bool positive, const std::string& field) {
  if (!std::isfinite(ns) || ns < 0 || (positive && ns == 0) || ns > kMaxScenarioTimeNs) {
    return Status::FieldError(field, std::string("must be in ") + (positive ? "(0, " : "[0, ") +
                                         std::to_string(static_cast<int64_t>(kMaxScenarioTimeNs)) +
                                         "] ns");
  }
  return Status::Ok();
}

StatusOr<topo::NodeId> NodeNamed(const topo::Graph& graph, const std::string& name,
                                 const std::string& field) {
  if (name.empty()) return Status::FieldError(field, "demanded: a node's name");
  const std::optional<topo::NodeId> n = graph.FindNode(name);
  if (!n.has_value()) return Status::FieldError(field, "no node named \"" + name + "\"");
  return *n;
}

StatusOr<FailureTarget> ResolveEngine(const fabric_emu::EngineRef& ref, const topo::Graph& graph,
                                      const std::vector<topo::OpticalEngine>& engines,
                                      const std::string& field) {
  StatusOr<topo::NodeId> sw = NodeNamed(graph, ref.switch_name(), field + ".switch_name");
  if (!sw.ok()) return sw.status();
  int32_t count = 0;
  for (const topo::OpticalEngine& e : engines) {
    if (e.switch_node != *sw) continue;
    if (static_cast<int32_t>(e.engine) == ref.engine()) {
      FailureTarget t{"engine", ref.switch_name() + ".engine" + std::to_string(ref.engine()), {}};
      for (uint16_t p : e.ports) t.links.push_back(graph.node(*sw).links[p]);
      std::sort(t.links.begin(), t.links.end());
      return t;
    }
    ++count;
  }
  return Status::FieldError(field + ".engine", ref.switch_name() + " has " + std::to_string(count) +
                                                   " optical engine(s), numbered from 0");
}

StatusOr<FailureTarget> ResolveSwitch(const std::string& name, const topo::Graph& graph,
                                      const std::string& field) {
  StatusOr<topo::NodeId> sw = NodeNamed(graph, name, field);
  if (!sw.ok()) return sw.status();
  if (graph.node(*sw).kind != topo::NodeKind::kSwitch) {
    return Status::FieldError(field, name + " is a host, not a switch");
  }
  FailureTarget t{"switch", name, graph.node(*sw).links};
  std::sort(t.links.begin(), t.links.end());
  return t;
}

}  // namespace

StatusOr<FailureTarget> ResolveLink(const fabric_emu::LinkRef& ref, const topo::Graph& graph,
                                    const std::string& field) {
  StatusOr<topo::NodeId> a = NodeNamed(graph, ref.a(), field + ".a");
  if (!a.ok()) return a.status();
  StatusOr<topo::NodeId> b = NodeNamed(graph, ref.b(), field + ".b");
  if (!b.ok()) return b.status();
  // Parallel links between a and b, in a's port order.
  std::vector<topo::LinkId> between;
  const topo::Node& node = graph.node(*a);
  for (uint16_t p = 0; p < node.links.size(); ++p) {
    if (graph.Peer(topo::PortRef{*a, p}).node == *b) between.push_back(node.links[p]);
  }
  if (between.empty()) {
    return Status::FieldError(field, "no link between " + ref.a() + " and " + ref.b());
  }
  if (ref.index() < 0 || static_cast<size_t>(ref.index()) >= between.size()) {
    return Status::FieldError(field + ".index", ref.a() + " and " + ref.b() + " have " +
                                                    std::to_string(between.size()) +
                                                    " link(s), numbered from 0");
  }
  return FailureTarget{"link",
                       ref.a() + "-" + ref.b() + "[" + std::to_string(ref.index()) + "]",
                       {between[ref.index()]}};
}

namespace {

// Entry i of topology.failure: its target into r->targets (an empty one if it has none) and its
// changes into r->changes, or the first thing wrong with it.
Status ResolveFailure(const fabric_emu::Failure& f, int i, const topo::Graph& graph,
                      const std::vector<topo::OpticalEngine>& engines, ResolvedFailures* r) {
  const std::string field = "failure[" + std::to_string(i) + "]";
  StatusOr<FailureTarget> target = Status::FieldError(field, "names no link, engine or switch");
  switch (f.target_case()) {
    case fabric_emu::Failure::kLink:
      target = ResolveLink(f.link(), graph, field + ".link");
      break;
    case fabric_emu::Failure::kEngine:
      target = ResolveEngine(f.engine(), graph, engines, field + ".engine");
      break;
    case fabric_emu::Failure::kSwitchName:
      target = ResolveSwitch(f.switch_name(), graph, field + ".switch_name");
      break;
    case fabric_emu::Failure::TARGET_NOT_SET:
      break;
  }
  r->targets.push_back(target.ok() ? std::move(target).value() : FailureTarget{});
  if (!target.ok()) return target.status();
  if (!f.has_at_ns()) return Status::FieldError(field + ".at_ns", "demanded");
  if (Status s = CheckTimeNs(f.at_ns(), false, field + ".at_ns"); !s.ok()) return s;
  const Time at = Time::FromNs(f.at_ns());
  if (!f.has_flap()) {
    r->changes.push_back(FailureChange{i, at, f.up(), false});
    return Status::Ok();
  }
  const fabric_emu::Flap& flap = f.flap();
  if (f.up()) return Status::FieldError(field + ".up", "a flap starts by going down");
  if (Status s = CheckTimeNs(flap.down_ns(), true, field + ".flap.down_ns"); !s.ok()) return s;
  if (Status s = CheckTimeNs(flap.period_ns(), true, field + ".flap.period_ns"); !s.ok()) {
    return s;
  }
  if (!(flap.period_ns() > flap.down_ns())) {
    return Status::FieldError(field + ".flap.period_ns", "must exceed down_ns");
  }
  if (flap.count() < 1 || flap.count() > kMaxFlapCount) {
    return Status::FieldError(field + ".flap.count",
                              "must be in [1, " + std::to_string(kMaxFlapCount) + "]");
  }
  // The last up must fall within the scenario's time range too.
  if (f.at_ns() + flap.period_ns() * (flap.count() - 1) + flap.down_ns() > kMaxScenarioTimeNs) {
    return Status::FieldError(field + ".flap",
                              "its last up falls after " +
                                  std::to_string(static_cast<int64_t>(kMaxScenarioTimeNs)) + " ns");
  }
  for (int32_t n = 0; n < flap.count(); ++n) {
    const Time down = at + Time::FromNs(flap.period_ns()) * n;
    r->changes.push_back(FailureChange{i, down, false, true});
    r->changes.push_back(FailureChange{i, down + Time::FromNs(flap.down_ns()), true, true});
  }
  return Status::Ok();
}

}  // namespace

StatusOr<ResolvedFailures> ResolveFailures(const fabric_emu::Topology& topology,
                                           const topo::Graph& graph, std::vector<Status>* errors) {
  std::vector<Status> found;
  ResolvedFailures r;
  const double delay_ns = topology.routing().reconverge_delay_ns();
  if (Status s = CheckTimeNs(delay_ns, false, "routing.reconverge_delay_ns"); !s.ok()) {
    found.push_back(s);
  }
  r.reconverge_delay = Time::FromNs(delay_ns);
  std::vector<topo::OpticalEngine> engines;
  for (const fabric_emu::Failure& f : topology.failure()) {
    if (f.has_engine()) {
      engines = topo::OpticalEngines(graph);
      break;
    }
  }
  for (int i = 0; i < topology.failure_size(); ++i) {
    if (Status s = ResolveFailure(topology.failure(i), i, graph, engines, &r); !s.ok()) {
      found.push_back(s);
    }
  }
  if (!found.empty()) {
    const Status first = found.front();
    if (errors != nullptr) *errors = std::move(found);
    return first;
  }
  // By time, then in list order (a flap's changes keep theirs): one order for every run.
  std::stable_sort(r.changes.begin(), r.changes.end(),
                   [](const FailureChange& a, const FailureChange& b) {
                     return a.at != b.at ? a.at < b.at : a.failure < b.failure;
                   });
  return r;
}

}  // namespace fe::control
