// A store-and-forward switch with a shared-buffer MMU: parse the real headers, classify by DSCP,
// route on the destination address through the ECMP group for it (decrementing the IPv4 TTL if
// configured), mark (WRED/ECN) and admit into the shared buffer, and queue on the chosen egress
// port by priority. Lossless priorities raise PFC: an 802.1Qbb frame goes back out of the ingress
// port, ahead of its data, and is refreshed while the priority group stays congested. The
// policies are congestion/'s; this class only moves packets and keeps their state.
#pragma once

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "congestion/buffer_admission.h"
#include "congestion/pfc_config.h"
#include "core/random.h"
#include "core/scheduler.h"
#include "dataplane/drop_reason.h"
#include "dataplane/egress_port.h"
#include "dataplane/egress_port_array.h"
#include "dataplane/element.h"
#include "dataplane/load_balancer.h"
#include "dataplane/packet.h"
#include "dataplane/switch_config.h"
#include "topology/graph.h"
#include "topology/routes.h"

namespace fe::dp {

// Per (local port, priority): ECN marks and drops of its egress queue, PFC frames sent out of it
// for its ingress priority group.
struct SwitchQueueCounters {
  uint64_t ecn_marks = 0;  // ECT packets this queue turned CE (already-CE ones are not counted)
  uint64_t pause_frames_sent = 0;   // XOFF and refreshes
  uint64_t resume_frames_sent = 0;  // XON (0 quanta)
  DropCounters drops;               // kQueueDropReasons only
};

struct SwitchCounters {
  uint64_t rx_packets = 0;
  uint64_t forwarded_packets = 0;
  uint64_t pause_alloc_failures = 0;  // PFC frames not sent: the packet pool was empty
  DropCounters drops;
};

// What a switch needs from the fabric besides its config.
struct SwitchWiring {
  topo::NodeId node = 0;
  // Indexed by local port; all with queues for the same priorities, every target of the config's
  // DSCP map among them.
  EgressPortSpan ports;
  const topo::RouteTable* routes = nullptr;
  const topo::Graph* graph = nullptr;  // WCMP weights follow its link rates
  uint32_t num_hosts = 0;
  uint32_t ecmp_seed = 0;
  uint64_t random_seed = 0;  // WRED draws; fixed per (run seed, switch) for reproducible runs
  Scheduler* sched = nullptr;
  rte_mempool* pool = nullptr;  // PFC frames
};

class Switch final : public PacketReceiver, public DequeueObserver, public EventHandler {
 public:
  // Registers itself with its ports (dequeue observer, egress scheduling); must not move.
  Switch(const SwitchWiring& wiring, SwitchConfig config);
  Switch(const Switch&) = delete;
  Switch& operator=(const Switch&) = delete;

  void Receive(uint16_t local_port, rte_mbuf* m) override;
  void PrefetchReceive(uint16_t local_port, const rte_mbuf* m) const override;
  void OnDequeue(uint16_t local_port, rte_mbuf* m, uint32_t frame_bytes, QueueId queue,
                 uint16_t in_port) override;
  void OnFlush(uint16_t local_port, rte_mbuf* m, uint32_t frame_bytes, QueueId queue,
               uint16_t in_port) override;
  // A pause refresh falls due for (port, priority) = (what / 8, what % 8).
  void OnEvent(uint64_t what) override;

  // Routes from now on (reconvergence after a link changed); `routes` must outlive their use.
  void SetRoutes(const topo::RouteTable* routes) {
    routes_ = routes->Of(node_);
    if (lb_ != nullptr) lb_->SetRoutes(*routes);
  }

  // Changes while a run goes on (control/emulation/command_executor.h): call between events or from
  // a domain-0 event.
  void SetWred(uint8_t prio, const cong::WredConfig& wred) { config_.wred[prio] = wred; }
  // Off: local port `port` sends no pause frame for `prio` (and resumes its sender now if it had
  // paused it); what arrives past XOFF then fills the headroom and is dropped beyond it.
  void SetPfcEnabled(uint16_t port, uint8_t prio, bool enabled);

  topo::NodeId node() const { return node_; }
  const SwitchCounters& counters() const { return counters_; }
  SwitchQueueCounters queue_counters(uint16_t port, uint8_t prio) const;
  const cong::BufferAdmission& buffer() const { return mmu_; }
  size_t num_ports() const { return ports_.size(); }
  cong::LbPolicy lb_policy() const { return lb_policy_; }
  // Flows that moved to port `port` at a new flowlet (0 under policies without flowlets).
  uint64_t flowlet_changes(uint16_t port) const {
    return lb_ != nullptr ? lb_->flowlet_changes(port) : 0;
  }

 private:
  // What a port's queues count and their pause timing. Few of a large fabric's ports ever mark,
  // drop or pause: a port gets these at its first such event.
  struct QueueStats {
    uint64_t ecn_marks = 0;
    uint64_t pause_frames_sent = 0;
    uint64_t resume_frames_sent = 0;
    QueueDropCounters drops;
    cong::PauseSender pause;  // of the ingress priority group with this priority
  };
  using PortQueues = std::array<QueueStats, cong::kNumPriorities>;
  QueueStats& Queue(uint16_t port, uint8_t prio) {
    const std::unique_ptr<PortQueues>& q = queues_[port];
    return q != nullptr ? (*q)[prio] : NewQueues(port)[prio];
  }
  [[gnu::cold, gnu::noinline]] PortQueues& NewQueues(uint16_t port);
  // The egress port for a packet to host dst with headers h, or -1 when no route leads there:
  // PeekRoute guesses it without changing anything (the prefetch stage), PickRoute chooses it
  // (a balancer's state moves on). Hash ECMP is the same in both, and computed inline: the
  // other policies are one predictable branch away.
  [[gnu::always_inline]] int PeekRoute(const HeaderView& h, uint32_t dst) const;
  [[gnu::always_inline]] int PickRoute(const HeaderView& h, uint32_t dst, QueueId queue);
  // The paths few packets take are kept out of line, so that the per-packet ones keep their
  // state in registers.
  [[gnu::cold, gnu::noinline]] void Drop(rte_mbuf* m, DropReason reason);
  [[gnu::cold, gnu::noinline]] void DropAt(uint16_t port, uint8_t prio, rte_mbuf* m,
                                           DropReason reason);
  // A frame dropped as it arrives on in_port takes no buffer: on a credit link its credit goes
  // back to the sender now. out: the port whose queue it was for (counted there), or -1.
  [[gnu::cold, gnu::noinline]] void DropArrival(uint16_t in_port, int out, uint8_t prio,
                                                rte_mbuf* m, DropReason reason);
  void ActOnPfc(uint16_t in_port, uint8_t prio, cong::PfcAction action) {
    if (action != cong::PfcAction::kNone) SendPauseFor(in_port, prio, action);
  }
  // XOFF or XON out of in_port for prio.
  [[gnu::noinline]] void SendPauseFor(uint16_t in_port, uint8_t prio, cong::PfcAction action);
  void SendPause(uint16_t port, uint8_t prio, uint16_t quanta);
  bool PfcOff(uint16_t port, uint8_t prio) const;
  // WRED marking as a packet leaves queue `queue` of local_port (mark_at_dequeue).
  [[gnu::noinline]] void MarkAtDequeue(uint16_t local_port, rte_mbuf* m, QueueId queue);

  // What PrefetchReceive reads comes first, in the object's first kReceiverHotBytes, which a
  // port prefetches ahead of an arrival: the scalars, the DSCP map and the first priorities' WRED.
  // PrefetchReceive then fetches the rest Receive touches (counters_ starts with the per-packet
  // counts; the MMU's usage and its priority's config).
  topo::NodeId node_;
  uint32_t num_hosts_;
  uint32_t ecmp_seed_;
  cong::LbPolicy lb_policy_;  // kHash: lb_ is null
  EgressPortSpan ports_;
  topo::RouteTable::SwitchRoutes routes_;
  Scheduler* sched_;
  // Its DSCP map gives each DSCP's QueueId (the priority and its queue at every port, which all
  // have queues for the same priorities) and its scheduler is indexed by queue (Switch()).
  SwitchConfig config_;
  SwitchCounters counters_;
  cong::BufferAdmission mmu_;
  rte_mempool* pool_;
  Random random_;
  std::vector<std::unique_ptr<PortQueues>> queues_;  // by local port; null until first needed
  std::unique_ptr<LoadBalancer> lb_;                 // policies other than hash
  std::vector<uint8_t> pfc_off_;  // by local port: priorities whose pausing is off; empty: none

  // The compiler's check of the layout above (docs/architecture.md, "Hot state first, a cache
  // line per queue"); a member, so that it may name the private members. Never called.
  static void CheckLayout();
};

// offsetof on a class with virtual functions is conditionally supported: GCC and Clang give the
// offsets of the layout they use, which is what these rules are about.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
inline void Switch::CheckLayout() {
  static_assert(offsetof(Switch, node_) < offsetof(Switch, config_) &&
                    offsetof(Switch, sched_) < offsetof(Switch, config_),
                "hot fields first: the routing scalars, then the compiled config");
  static_assert(
      offsetof(Switch, config_) + offsetof(SwitchConfig, dscp) + sizeof(cong::DscpMapConfig) <=
          kReceiverHotBytes,
      "hot fields in the first kReceiverHotBytes, which a port prefetches ahead of an "
      "arrival: the routing scalars and the DSCP map");
  static_assert(
      offsetof(Switch, config_) + offsetof(SwitchConfig, wred) + sizeof(cong::WredConfig) <=
          kReceiverHotBytes,
      "hot fields in the first kReceiverHotBytes: WRED begins there (priority 0's entry; "
      "PrefetchReceive fetches the arriving priority's)");
  static_assert(offsetof(SwitchCounters, rx_packets) == 0 &&
                    offsetof(SwitchCounters, forwarded_packets) == sizeof(uint64_t),
                "the counters start with the per-packet counts, the line PrefetchReceive fetches");
  static_assert(offsetof(Switch, counters_) < offsetof(Switch, mmu_) &&
                    offsetof(Switch, mmu_) < offsetof(Switch, queues_),
                "what every packet touches (config, counters, MMU) before what few do (per-queue "
                "statistics, balancer, PFC switches)");
}
#pragma GCC diagnostic pop

}  // namespace fe::dp
