#include "dataplane/switch.h"

#include <cassert>

#include "congestion/dscp_map.h"
#include "congestion/ecmp_hash.h"
#include "congestion/wred.h"
#include "dataplane/addressing.h"
#include "dataplane/packet.h"
#include "dataplane/packet_pool.h"
#include "dataplane/pfc_frame.h"

namespace fe::dp {

namespace {
DropReason ToDropReason(cong::AdmitVerdict v) {
  return v == cong::AdmitVerdict::kDropHeadroomOverflow ? DropReason::kHeadroomOverflow
                                                        : DropReason::kQueueLimit;
}

// Locally administered address of a switch port, the source of its PFC frames.
void SwitchPortMac(topo::NodeId node, uint16_t port, uint8_t out[6]) {
  out[0] = 0x02;
  out[1] = 0xfe;
  out[2] = 0x80 | static_cast<uint8_t>(node >> 16);
  out[3] = static_cast<uint8_t>(node >> 8);
  out[4] = static_cast<uint8_t>(node);
  out[5] = static_cast<uint8_t>(port);
}
}  // namespace

Switch::Switch(const SwitchWiring& w, SwitchConfig config)
    : node_(w.node),
      num_hosts_(w.num_hosts),
      ecmp_seed_(w.ecmp_seed),
      lb_policy_(config.lb.policy),
      ports_(w.ports),
      routes_(w.routes->Of(w.node)),
      sched_(w.sched),
      config_(std::move(config)),
      mmu_(config_.buffer),
      pool_(w.pool),
      random_(w.random_seed),
      queues_(ports_.size()) {
  // The ports have queues for the same priorities, among them every one the DSCP map gives.
  const uint8_t priorities = ports_.size() > 0 ? ports_[0].queue_priorities() : kAllPriorities;
  for (uint8_t& queue : config_.dscp.priority_of_dscp) {
    assert(QueueSlotOf(priorities, queue) >= 0);
    queue = QueueIdOf(priorities, queue).code;
  }
  config_.scheduler = QueueSchedulerConfig(config_.scheduler, priorities);
  if (lb_policy_ != cong::LbPolicy::kHash) {
    // Its own stream: the WRED draws stay those of the same run under hash.
    lb_ =
        std::make_unique<LoadBalancer>(config_.lb, ports_, w.random_seed ^ 0x6c62u, w.graph, node_);
    lb_->SetRoutes(*w.routes);
  }
  for (uint16_t p = 0; p < ports_.size(); ++p) {
    ports_[p].SetDequeueObserver(this, p);
    ports_[p].SetScheduler(&config_.scheduler);
    ports_[p].SetWatchdog(&config_.watchdog, config_.watchdog_queues);
  }
}

void Switch::Drop(rte_mbuf* m, DropReason reason) {
  counters_.drops.Count(reason, FrameBytes(m));
  FreePacket(m);
}

void Switch::DropAt(uint16_t port, uint8_t prio, rte_mbuf* m, DropReason reason) {
  Queue(port, prio).drops.Count(reason, FrameBytes(m));
  Drop(m, reason);
}

void Switch::DropArrival(uint16_t in_port, int out, uint8_t prio, rte_mbuf* m, DropReason reason) {
  if (ports_[in_port].credit_port() != nullptr) ports_[in_port].OnCreditFreed(prio, FrameBytes(m));
  if (out < 0) return Drop(m, reason);
  DropAt(static_cast<uint16_t>(out), prio, m, reason);
}

Switch::PortQueues& Switch::NewQueues(uint16_t port) {
  queues_[port] = std::make_unique<PortQueues>();
  return *queues_[port];
}

SwitchQueueCounters Switch::queue_counters(uint16_t port, uint8_t prio) const {
  SwitchQueueCounters c;
  if (queues_[port] == nullptr) return c;
  const QueueStats& q = (*queues_[port])[prio];
  c.ecn_marks = q.ecn_marks;
  c.pause_frames_sent = q.pause_frames_sent;
  c.resume_frames_sent = q.resume_frames_sent;
  c.drops = q.drops.All();
  return c;
}

inline int Switch::PeekRoute(const HeaderView& h, uint32_t dst) const {
  const std::span<const uint16_t> group = routes_.NextHops(dst);
  if (group.empty()) return -1;
  // Going down a fat-tree there is one way: no hash to compute for half of a path's hops.
  if (group.size() == 1) return group[0];
  const uint32_t hash = cong::EcmpHash(h.src_ip, h.dst_ip, h.src_port, h.dst_port, ecmp_seed_);
  if (lb_policy_ != cong::LbPolicy::kHash) return lb_->Peek(group, hash, dst, sched_->Now());
  return group[cong::PickEcmpMember(hash, static_cast<uint16_t>(group.size()))];
}

inline int Switch::PickRoute(const HeaderView& h, uint32_t dst, QueueId queue) {
  const std::span<const uint16_t> group = routes_.NextHops(dst);
  if (group.empty()) return -1;
  if (group.size() == 1) return group[0];
  const uint32_t hash = cong::EcmpHash(h.src_ip, h.dst_ip, h.src_port, h.dst_port, ecmp_seed_);
  if (lb_policy_ != cong::LbPolicy::kHash) {
    return lb_->Pick(group, hash, dst, queue, sched_->Now());
  }
  return group[cong::PickEcmpMember(hash, static_cast<uint16_t>(group.size()))];
}

void Switch::PrefetchReceive(uint16_t local_port, const rte_mbuf* m) const {
  HeaderView h;
  if (ParseHeaders(m, &h) != ParseError::kNone) return;
  const uint32_t dst = HostOfIp(h.dst_ip);
  if (dst >= num_hosts_) return;
  const int out = PeekRoute(h, dst);
  if (out < 0) return;
  const QueueId queue{cong::PriorityOf(config_.dscp, h.dscp)};
  const uint8_t prio = queue.priority();
  ports_[out].PrefetchEnqueue(queue);
  mmu_.Prefetch(local_port, static_cast<uint16_t>(out), prio);
  __builtin_prefetch(&counters_);
  __builtin_prefetch(&config_.wred[prio]);
}

void Switch::Receive(uint16_t local_port, rte_mbuf* m) {
  ++counters_.rx_packets;
  HeaderView h;
  const ParseError err = ParseHeaders(m, &h);
  if (err != ParseError::kNone) return Drop(m, ToDropReason(err));
  const uint32_t dst = HostOfIp(h.dst_ip);
  const QueueId queue{cong::PriorityOf(config_.dscp, h.dscp)};
  const uint8_t prio = queue.priority();
  if (dst >= num_hosts_)
    return DropArrival(local_port, -1, prio, m, DropReason::kUnknownDestination);
  if (config_.decrement_ttl && !DecrementTtl(m)) {
    return DropArrival(local_port, -1, prio, m, DropReason::kTtlExpired);
  }

  const int route = PickRoute(h, dst, queue);
  if (route < 0) return DropArrival(local_port, -1, prio, m, DropReason::kNoRoute);
  const auto out = static_cast<uint16_t>(route);
  if (ports_[out].Stormed(queue)) {
    return DropArrival(local_port, out, prio, m, DropReason::kPfcWatchdog);
  }

  const cong::WredConfig& wred = config_.wred[prio];
  const int64_t queue_bytes = ports_[out].queue_bytes(queue);
  // The draw is taken only inside the marking band, where it decides something.
  if (!wred.mark_at_dequeue && queue_bytes > wred.kmin_bytes) {
    const cong::WredVerdict v = cong::WredDecide(wred, queue_bytes, h.ecn != kEcnNotEct,
                                                 config_.buffer.priorities[prio].lossless,
                                                 static_cast<uint32_t>(random_.NextU64() >> 32));
    if (v == cong::WredVerdict::kDrop) {
      return DropArrival(local_port, out, prio, m, DropReason::kWredDrop);
    }
    if (v == cong::WredVerdict::kMark && h.ecn != kEcnCe) {
      SetIpEcn(m, kEcnCe);
      ++Queue(out, prio).ecn_marks;
    }
  }

  const uint32_t frame_bytes = FrameBytes(m);
  const cong::AdmitVerdict verdict = mmu_.Admit(local_port, out, prio, frame_bytes);
  if (!cong::Admitted(verdict)) return DropArrival(local_port, out, prio, m, ToDropReason(verdict));
  // The pause leaves before this packet can: it must not wait behind it.
  ActOnPfc(local_port, prio, mmu_.PfcCheck(local_port, prio));
  ++counters_.forwarded_packets;
  ports_[out].Enqueue(m, queue, local_port);
}

void Switch::OnDequeue(uint16_t local_port, rte_mbuf* m, uint32_t frame_bytes, QueueId queue,
                       uint16_t in_port) {
  const uint8_t prio = queue.priority();
  if (mmu_.Release(in_port, local_port, prio, frame_bytes))
    ports_[in_port].OnCreditFreed(prio, frame_bytes);
  if (config_.wred[prio].mark_at_dequeue) MarkAtDequeue(local_port, m, queue);
  ActOnPfc(in_port, prio, mmu_.PfcCheck(in_port, prio));
}

void Switch::MarkAtDequeue(uint16_t local_port, rte_mbuf* m, QueueId queue) {
  const cong::WredConfig& wred = config_.wred[queue.priority()];
  const int64_t behind_bytes = ports_[local_port].queue_bytes(queue);
  // At dequeue a RED drop is not taken (the packet is already leaving); ECT packets are marked.
  if (behind_bytes <= wred.kmin_bytes) return;
  HeaderView h;
  if (ParseHeaders(m, &h) == ParseError::kNone && h.ecn != kEcnCe &&
      cong::WredDecide(wred, behind_bytes, h.ecn != kEcnNotEct, true,
                       static_cast<uint32_t>(random_.NextU64() >> 32)) ==
          cong::WredVerdict::kMark) {
    SetIpEcn(m, kEcnCe);
    ++Queue(local_port, queue.priority()).ecn_marks;
  }
}

void Switch::OnFlush(uint16_t local_port, rte_mbuf* m, uint32_t frame_bytes, QueueId queue,
                     uint16_t in_port) {
  const uint8_t prio = queue.priority();
  if (mmu_.Release(in_port, local_port, prio, frame_bytes))
    ports_[in_port].OnCreditFreed(prio, frame_bytes);
  DropAt(local_port, prio, m, DropReason::kPfcWatchdog);
  ActOnPfc(in_port, prio, mmu_.PfcCheck(in_port, prio));
}

bool Switch::PfcOff(uint16_t port, uint8_t prio) const {
  return !pfc_off_.empty() && ((pfc_off_[port] >> prio) & 1) != 0;
}

void Switch::SetPfcEnabled(uint16_t port, uint8_t prio, bool enabled) {
  if (pfc_off_.empty()) pfc_off_.assign(ports_.size(), 0);
  const auto bit = static_cast<uint8_t>(1u << prio);
  pfc_off_[port] = enabled ? pfc_off_[port] & ~bit : pfc_off_[port] | bit;
  // A sender held paused is released (or paused again) now: the MMU's edge-triggered XOFF state
  // would otherwise only speak at its next edge.
  if (mmu_.pg(port, prio).xoff) {
    SendPause(port, prio, enabled ? config_.pause[port].quanta : 0);
  }
}

void Switch::SendPauseFor(uint16_t in_port, uint8_t prio, cong::PfcAction action) {
  if (PfcOff(in_port, prio)) return;
  SendPause(in_port, prio,
            action == cong::PfcAction::kSendXoff ? config_.pause[in_port].quanta : 0);
}

void Switch::SendPause(uint16_t port, uint8_t prio, uint16_t quanta) {
  rte_mbuf* m = AllocPacket(pool_);
  if (m == nullptr) {
    ++counters_.pause_alloc_failures;
    return;
  }
  uint8_t mac[6];
  SwitchPortMac(node_, port, mac);
  PfcFrame f;
  f.class_enable = static_cast<uint8_t>(1u << prio);
  f.quanta[prio] = quanta;
  WritePfcFrame(m, mac, f);  // a 60-byte frame always fits an mbuf of the fabric's pool
  QueueStats& q = Queue(port, prio);
  if (quanta > 0) {
    ++q.pause_frames_sent;
    sched_->At(q.pause.OnXoffSent(config_.pause[port], sched_->Now()), this,
               uint64_t{port} * cong::kNumPriorities + prio);
  } else {
    ++q.resume_frames_sent;
    q.pause.OnXonSent();
  }
  ports_[port].EnqueueControl(m);
}

void Switch::OnEvent(uint64_t what) {
  const auto port = static_cast<uint16_t>(what / cong::kNumPriorities);
  const auto prio = static_cast<uint8_t>(what % cong::kNumPriorities);
  // The XOFF that armed this event made the port's queue state.
  if (mmu_.pg(port, prio).xoff && !PfcOff(port, prio) &&
      Queue(port, prio).pause.RefreshDue(sched_->Now())) {
    SendPause(port, prio, config_.pause[port].quanta);
  }
}

}  // namespace fe::dp
