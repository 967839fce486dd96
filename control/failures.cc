#include "control/failures.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "control/emulation.h"
#include "control/scenario_validator.h"
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
    return Status::Error(field + ": must be in " + (positive ? "(0, " : "[0, ") +
                         std::to_string(static_cast<int64_t>(kMaxScenarioTimeNs)) + "] ns");
  }
  return Status::Ok();
}

StatusOr<topo::NodeId> NodeNamed(const topo::Graph& graph, const std::string& name,
                                 const std::string& field) {
  if (name.empty()) return Status::Error(field + ": demanded: a node's name");
  const std::optional<topo::NodeId> n = graph.FindNode(name);
  if (!n.has_value()) return Status::Error(field + ": no node named \"" + name + "\"");
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
  return Status::Error(field + ".engine: " + ref.switch_name() + " has " + std::to_string(count) +
                       " optical engine(s), numbered from 0");
}

StatusOr<FailureTarget> ResolveSwitch(const std::string& name, const topo::Graph& graph,
                                      const std::string& field) {
  StatusOr<topo::NodeId> sw = NodeNamed(graph, name, field);
  if (!sw.ok()) return sw.status();
  if (graph.node(*sw).kind != topo::NodeKind::kSwitch) {
    return Status::Error(field + ": " + name + " is a host, not a switch");
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
    return Status::Error(field + ": no link between " + ref.a() + " and " + ref.b());
  }
  if (ref.index() < 0 || static_cast<size_t>(ref.index()) >= between.size()) {
    return Status::Error(field + ".index: " + ref.a() + " and " + ref.b() + " have " +
                         std::to_string(between.size()) + " link(s), numbered from 0");
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
  StatusOr<FailureTarget> target = Status::Error(field + ": names no link, engine or switch");
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
  if (!f.has_at_ns()) return Status::Error(field + ".at_ns: demanded");
  if (Status s = CheckTimeNs(f.at_ns(), false, field + ".at_ns"); !s.ok()) return s;
  const Time at = TimeFromNs(f.at_ns());
  if (!f.has_flap()) {
    r->changes.push_back(FailureChange{i, at, f.up(), false});
    return Status::Ok();
  }
  const fabric_emu::Flap& flap = f.flap();
  if (f.up()) return Status::Error(field + ".up: a flap starts by going down");
  if (Status s = CheckTimeNs(flap.down_ns(), true, field + ".flap.down_ns"); !s.ok()) return s;
  if (Status s = CheckTimeNs(flap.period_ns(), true, field + ".flap.period_ns"); !s.ok()) {
    return s;
  }
  if (!(flap.period_ns() > flap.down_ns())) {
    return Status::Error(field + ".flap.period_ns: must exceed down_ns");
  }
  if (flap.count() < 1 || flap.count() > kMaxFlapCount) {
    return Status::Error(field + ".flap.count: must be in [1, " + std::to_string(kMaxFlapCount) +
                         "]");
  }
  // The last up must fall within the scenario's time range too.
  if (f.at_ns() + flap.period_ns() * (flap.count() - 1) + flap.down_ns() > kMaxScenarioTimeNs) {
    return Status::Error(field + ".flap: its last up falls after " +
                         std::to_string(static_cast<int64_t>(kMaxScenarioTimeNs)) + " ns");
  }
  for (int32_t n = 0; n < flap.count(); ++n) {
    const Time down = at + TimeFromNs(flap.period_ns()) * n;
    r->changes.push_back(FailureChange{i, down, false, true});
    r->changes.push_back(FailureChange{i, down + TimeFromNs(flap.down_ns()), true, true});
  }
  return Status::Ok();
}

}  // namespace

StatusOr<ResolvedFailures> ResolveFailures(const fabric_emu::Topology& topology,
                                           const topo::Graph& graph,
                                           std::vector<std::string>* errors) {
  std::vector<std::string> found;
  ResolvedFailures r;
  const double delay_ns = topology.routing().reconverge_delay_ns();
  if (Status s = CheckTimeNs(delay_ns, false, "routing.reconverge_delay_ns"); !s.ok()) {
    found.push_back(s.message());
  }
  r.reconverge_delay = TimeFromNs(delay_ns);
  std::vector<topo::OpticalEngine> engines;
  for (const fabric_emu::Failure& f : topology.failure()) {
    if (f.has_engine()) {
      engines = topo::OpticalEngines(graph);
      break;
    }
  }
  for (int i = 0; i < topology.failure_size(); ++i) {
    if (Status s = ResolveFailure(topology.failure(i), i, graph, engines, &r); !s.ok()) {
      found.push_back(s.message());
    }
  }
  if (!found.empty()) {
    const std::string first = found.front();
    if (errors != nullptr) *errors = std::move(found);
    return Status::Error(first);
  }
  // By time, then in list order (a flap's changes keep theirs): one order for every run.
  std::stable_sort(r.changes.begin(), r.changes.end(),
                   [](const FailureChange& a, const FailureChange& b) {
                     return a.at != b.at ? a.at < b.at : a.failure < b.failure;
                   });
  return r;
}

StatusOr<std::unique_ptr<FailureInjector>> FailureInjector::Create(
    const fabric_emu::Topology& topology, dp::Fabric* fabric, Scheduler* sched) {
  StatusOr<ResolvedFailures> resolved = ResolveFailures(topology, fabric->graph());
  if (!resolved.ok()) return resolved.status();
  return std::unique_ptr<FailureInjector>(
      new FailureInjector(std::move(resolved).value(), fabric, sched));
}

FailureInjector::FailureInjector(ResolvedFailures resolved, dp::Fabric* fabric, Scheduler* sched)
    : resolved_(std::move(resolved)),
      fabric_(fabric),
      sched_(sched),
      events_(resolved_.changes.size()),
      affected_(resolved_.changes.size()),
      holders_(fabric->graph().links().size()) {
  for (size_t c = 0; c < resolved_.changes.size(); ++c) {
    const FailureChange& change = resolved_.changes[c];
    const FailureTarget& target = resolved_.targets[change.failure];
    FailureEventSummary& e = events_[c];
    e.failure = change.failure;
    e.at = change.at;
    e.kind = target.kind + (change.up ? "_up" : "_down");
    e.target = target.name;
  }
  fabric_->SetLossObserver(this);
}

FailureInjector::~FailureInjector() { fabric_->SetLossObserver(nullptr); }

// Event argument: change index x 2, + 1 for the reconvergence that follows it.
void FailureInjector::Start() {
  for (uint32_t c = 0; c < resolved_.changes.size(); ++c) {
    sched_->At(resolved_.changes[c].at, this, uint64_t{c} * 2);
  }
}

Status FailureInjector::ChangeLinkNow(const fabric_emu::LinkRef& link, bool up) {
  StatusOr<FailureTarget> target = ResolveLink(link, fabric_->graph(), "link");
  if (!target.ok()) return target.status();
  const auto failure = static_cast<int32_t>(resolved_.targets.size());
  const auto change = static_cast<uint32_t>(resolved_.changes.size());
  resolved_.targets.push_back(std::move(target).value());
  resolved_.changes.push_back(FailureChange{failure, sched_->Now(), up, false});
  const FailureTarget& t = resolved_.targets.back();
  events_.push_back(
      FailureEventSummary{failure, sched_->Now(), t.kind + (up ? "_up" : "_down"), t.name});
  affected_.emplace_back();
  OnEvent(uint64_t{change} * 2);
  return Status::Ok();
}

void FailureInjector::OnEvent(uint64_t arg) {
  const auto change = static_cast<uint32_t>(arg / 2);
  if (arg % 2 == 1) return Reconverge(change);
  Apply(change);
  if (resolved_.reconverge_delay == Time::Zero()) return Reconverge(change);
  sched_->After(resolved_.reconverge_delay, this, arg + 1);
}

void FailureInjector::Apply(uint32_t change) {
  const FailureChange& c = resolved_.changes[change];
  for (topo::LinkId l : resolved_.targets[c.failure].links) {
    std::vector<Holder>& held = holders_[l];
    if (!c.up) {
      const bool already = std::any_of(held.begin(), held.end(),
                                       [&](const Holder& h) { return h.failure == c.failure; });
      if (!already) held.push_back(Holder{c.failure, change});
    } else if (c.flap) {
      std::erase_if(held, [&](const Holder& h) { return h.failure == c.failure; });
    } else {
      // An explicit up repairs what its target names: a link up mends the cable, whichever link
      // failures cut it, but not a switch or an engine still down; a switch or engine comes back
      // whichever entry took it down.
      const FailureTarget& up = resolved_.targets[c.failure];
      std::erase_if(held, [&](const Holder& h) {
        const FailureTarget& down = resolved_.targets[h.failure];
        return down.kind == up.kind && (up.kind == "link" || down.name == up.name);
      });
    }
    if (fabric_->link_up(l) != held.empty()) {
      fabric_->SetLinkUp(l, held.empty());
      routes_stale_ = true;
    }
  }
}

void FailureInjector::Reconverge(uint32_t change) {
  FailureEventSummary& e = events_[change];
  e.reroute_at = sched_->Now();
  // Several changes converging at once need one rebuild: the first does it for all.
  if (!routes_stale_) return;
  routes_stale_ = false;
  fabric_->SetRoutes(std::make_shared<const topo::RouteTable>(
      topo::RouteTable::Build(fabric_->graph(), fabric_->link_up_mask())));
  e.unreachable_flows = fabric_->MarkUnreachable();
}

void FailureInjector::OnLinkLoss(uint32_t link, dp::DropReason reason, const rte_mbuf* m) {
  if (reason != dp::DropReason::kLinkDown) return;
  dp::HeaderView h;
  const bool roce = dp::ParseAnyHeaders(m, &h) == dp::ParseError::kNone && h.is_roce &&
                    h.dest_qp >= dp::kFirstQpn;
  const uint32_t qp_plus_1 = roce ? h.dest_qp - dp::kFirstQpn + 1 : 0;
  sched_->Serial(&loss_count_, (uint64_t{link} << 32) | qp_plus_1);
}

void FailureInjector::CountLoss(uint32_t link, uint32_t qp_plus_1) {
  // To the earliest change still holding the link, so that the events' frames_lost add up to the
  // link_down drops; a frame lost as the link died (nothing holds it then) counts to none.
  if (holders_[link].empty()) return;
  const uint32_t change = holders_[link].front().change;
  ++events_[change].frames_lost;
  if (qp_plus_1 != 0) affected_[change].insert(qp_plus_1 - 1);
}

FailureSummary FailureInjector::Summary() const {
  FailureSummary s;
  for (size_t c = 0; c < events_.size(); ++c) {
    // Changes still ahead when the run ended did not happen.
    if (events_[c].at > sched_->Now()) continue;
    s.events.push_back(events_[c]);
    s.events.back().flows_affected = affected_[c].size();
  }
  const dp::MessageTable& messages = fabric_->messages();
  for (uint32_t id = 0; id < messages.size(); ++id) {
    if (messages.sender[id].unreachable) s.unreachable_flow_ids.push_back(id);
  }
  return s;
}

}  // namespace fe::control
