#include "control/emulation/failure_injector.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "control/emulation/emulation.h"
#include "control/scenario/validate/scenario_validator.h"
#include "dataplane/message.h"
#include "dataplane/packet.h"
#include "topology/engines.h"
#include "topology/routes.h"

namespace fe::control {

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
