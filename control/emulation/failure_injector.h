// Runs the scenario's failures (control/scenario/failure_schedule.h) in the emulation: each
// link change at its time, each followed by the reconvergence that reroutes around dead links
// and gives up the messages no route serves any more; counts what every change cost.
//
// Every change and reconvergence is an event of scheduler domain 0, which sees the whole model at
// one instant: a change touches both ends of a link, a reconvergence every switch. Within a time
// they run in the order the list gives, so a run stays deterministic.
#pragma once

#include <rte_mbuf.h>

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "control/scenario/failure_schedule.h"
#include "core/scheduler.h"
#include "core/status.h"
#include "core/units.h"
#include "dataplane/egress_port.h"
#include "dataplane/fabric.h"
#include "proto/scenario.pb.h"
#include "topology/graph.h"

namespace fe::control {

// One change as the summary reports it.
struct FailureEventSummary {
  int32_t failure = 0;  // index in topology.failure
  Time at;
  std::string kind;    // "link_down", "engine_up", "switch_down", ...
  std::string target;  // FailureTarget::name
  // kLinkDown drops on the target's links while it was down (a down change only; frames on a
  // link that is down for overlapping failures count for the earliest of them).
  uint64_t frames_lost = 0;
  uint64_t flows_affected = 0;  // distinct messages that lost a frame to it
  // When routes took the change in: the reconvergence that followed it; Infinite if the run
  // ended first.
  Time reroute_at = Time::Infinite();
  uint64_t unreachable_flows = 0;  // messages given up at that reconvergence
};

struct FailureSummary {
  std::vector<FailureEventSummary> events;  // in the order they happened
  // Every message given up, by id (flows.csv's): at a reconvergence, or at its start with no
  // route.
  std::vector<uint32_t> unreachable_flow_ids;
};

class FailureInjector final : public EventHandler, public dp::LinkLossObserver {
 public:
  // The fabric, its graph and the scheduler must outlive the injector, which registers itself
  // as the fabric's loss observer.
  static StatusOr<std::unique_ptr<FailureInjector>> Create(const fabric_emu::Topology& topology,
                                                           dp::Fabric* fabric, Scheduler* sched);
  ~FailureInjector() override;
  FailureInjector(const FailureInjector&) = delete;
  FailureInjector& operator=(const FailureInjector&) = delete;

  // Schedules every change.
  void Start();
  // A link change a command makes now (control/emulation/command_executor.h), handled as a change
  // of the list: reconvergence, losses and summary alike. Call from a domain-0 event. Its failure
  // index follows the list's.
  Status ChangeLinkNow(const fabric_emu::LinkRef& link, bool up);
  FailureSummary Summary() const;

  void OnEvent(uint64_t arg) override;
  void OnLinkLoss(uint32_t link, dp::DropReason reason, const rte_mbuf* m) override;

 private:
  FailureInjector(ResolvedFailures resolved, dp::Fabric* fabric, Scheduler* sched);
  void Apply(uint32_t change);
  void Reconverge(uint32_t change);
  // Counts a frame lost on `link` to the changes holding it down; qp_plus_1: the message's
  // (BTH destination QP less the first) + 1, or 0 for a frame of no message.
  void CountLoss(uint32_t link, uint32_t qp_plus_1);
  // Runs CountLoss as a Scheduler::Serial call: losses happen on every node, the counts are one.
  class LossCount final : public EventHandler {
   public:
    explicit LossCount(FailureInjector* f) : f_(f) {}
    void OnEvent(uint64_t arg) override {
      f_->CountLoss(static_cast<uint32_t>(arg >> 32), static_cast<uint32_t>(arg));
    }

   private:
    FailureInjector* f_;
  };

  ResolvedFailures resolved_;
  dp::Fabric* fabric_;
  Scheduler* sched_;
  std::vector<FailureEventSummary> events_;             // by change
  std::vector<std::unordered_set<uint32_t>> affected_;  // by change: message ids
  // By link: the failures holding it down now, each with its down change (to which the link's
  // losses count). A link is up while none holds it.
  struct Holder {
    int32_t failure;
    uint32_t change;
  };
  std::vector<std::vector<Holder>> holders_;
  bool routes_stale_ = false;  // a link changed since the routes were last built
  LossCount loss_count_{this};
};

}  // namespace fe::control
