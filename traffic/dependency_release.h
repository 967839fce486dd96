// Starts the messages of a workload that wait for others, as the fabric reports deliveries.
//
// Message x starts at max(flows[x].start, max over its dependencies d of delivered(d) + wait),
// where wait is x's delay when d is delivered at the host that sends x, and max(delay, the
// fabric's lookahead) when it is delivered anywhere else: the notice that d arrived has to cross
// at least one link to reach x's sender. That keeps every start another node causes at or after
// the end of the scheduler window it is caused in (windows are at most the lookahead long), so a
// run with windows and one without start every message at the same time.
//
// Each delivery touches only its own dependants: a counter of dependencies left and the latest
// ready time per message, over dependants in compressed rows built once. Nothing is allocated
// per message while the run goes on.
//
// Cores: a delivery's effects reach other nodes' messages, so they run as a Scheduler::Serial
// call (at the window's end with several cores, in one core's order). A dependant started within
// the lookahead of a delivery at its own sender could land inside the window being run: a
// workload with such an edge runs on one core (releases_within_lookahead).
//
// Failures: a message given up before its delivery never releases its dependants, and they in
// turn never release theirs. They are marked cancelled in the fabric (finished: a run does not
// wait for them) and report no start. Should the given-up message's last bytes still arrive (they
// were already on their way), the delivery counts after all and the marks are revoked.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/status.h"
#include "core/units.h"
#include "dataplane/fabric.h"
#include "dataplane/message.h"
#include "traffic/workload.h"

namespace fe {

class DependencyRelease final : public dp::MessageObserver {
 public:
  // `w` must pass CheckDependencies, and the fabric must hold exactly its messages, by the same
  // ids, held exactly when they have dependencies. Registers itself as the fabric's message
  // observer; the fabric must outlive it.
  static StatusOr<std::unique_ptr<DependencyRelease>> Create(const Workload& w, dp::Fabric* fabric);
  ~DependencyRelease() override;
  DependencyRelease(const DependencyRelease&) = delete;
  DependencyRelease& operator=(const DependencyRelease&) = delete;

  void OnDelivered(uint32_t id, Time at) override;
  void OnGivenUp(uint32_t id) override;

  // Messages started by a release so far.
  uint64_t releases() const { return releases_; }
  // Some delivery can start a dependant less than the fabric's lookahead later (at the host that
  // sends it): the release must then run with the delivery, not at its window's end.
  bool releases_within_lookahead() const { return within_lookahead_; }

 private:
  struct Edge {
    uint32_t dependant;
    Time wait;  // from the dependency's delivery to the dependant's start, at least
  };
  enum Fate : uint8_t { kDelivered = 1, kGivenUp = 2 };

  explicit DependencyRelease(dp::Fabric* fabric) : fabric_(fabric), notices_(this) {}
  void Delivered(uint32_t id, Time at);
  void GivenUp(uint32_t id);
  // Runs the fabric's reports as Serial calls: arg is a message id, its low bit set if given up.
  class Notices final : public EventHandler {
   public:
    explicit Notices(DependencyRelease* r) : r_(r) {}
    void OnEvent(uint64_t arg) override;

   private:
    DependencyRelease* r_;
  };
  // A dependency of `id` will not be delivered (given up, or it will never start itself).
  void Block(uint32_t id);
  // One such dependency was delivered after all.
  void Unblock(uint32_t id);
  std::span<const Edge> dependants(uint32_t id) const {
    return {edges_.data() + first_edge_[id], edges_.data() + first_edge_[id + 1]};
  }

  dp::Fabric* fabric_;
  std::vector<uint32_t> first_edge_;  // by message, one past the end: its dependants' edges
  std::vector<Edge> edges_;
  std::vector<uint32_t> left_;   // by message: dependencies not delivered yet
  std::vector<Time> ready_;      // by message: the latest start its deliveries so far demand
  std::vector<uint32_t> dead_;   // by message: dependencies given up undelivered, or blocked
  std::vector<uint8_t> fate_;    // by message: Fate bits
  std::vector<uint32_t> stack_;  // Block's and Unblock's work list, kept between calls
  uint64_t releases_ = 0;
  bool within_lookahead_ = false;
  Notices notices_;
};

}  // namespace fe
