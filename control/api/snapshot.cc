#include "control/api/snapshot.h"

#include <algorithm>

#include "control/report/message_counts.h"

namespace fe::control::api {

namespace {

void AddQueues(const Emulation& e, Time now, RunSnapshot* s) {
  const dp::Fabric& f = *e.fabric;
  for (size_t i = 0; i < f.num_switches(); ++i) {
    const dp::Switch& sw = f.switch_at(i);
    s->switch_names.push_back(e.graph.node(sw.node()).name);
    const auto index = static_cast<uint32_t>(i);
    for (uint16_t p = 0; p < sw.num_ports(); ++p) {
      const dp::EgressPort& port = f.port(sw.node(), p);
      const dp::PortCounters pc = port.counters();
      s->ports.push_back(PortRow{index, p, pc.tx_packets, pc.tx_wire_bytes});
      for (uint8_t q = 0; q < dp::kNumQueues; ++q) {
        if ((port.queue_priorities() & (1u << q)) == 0) continue;
        const dp::SwitchQueueCounters c = sw.queue_counters(p, q);
        QueueRow row;
        row.switch_index = index;
        row.port = p;
        row.priority = q;
        row.depth_bytes = port.queue_bytes(static_cast<int>(q));
        row.max_depth_bytes = pc.max_queue_bytes[q];
        row.ecn_marks = c.ecn_marks;
        row.pause_frames_sent = c.pause_frames_sent;
        row.resume_frames_sent = c.resume_frames_sent;
        row.pause_frames_received = pc.pause_frames_received[q];
        row.paused_s = port.PausedTime(q, now).seconds();
        for (size_t r = 0; r < dp::kQueueDropReasons.size(); ++r) {
          row.drops[r] = c.drops.packets[static_cast<size_t>(dp::kQueueDropReasons[r])];
        }
        s->queues.push_back(row);
      }
    }
  }
}

void AddHosts(const Emulation& e, const RateSampler* rates, Time now, RunSnapshot* s) {
  const dp::MessageTable& messages = e.fabric->messages();
  auto& fabric = const_cast<dp::Fabric&>(*e.fabric);  // nic() has no const overload; read only
  std::vector<uint32_t> first_nic;                    // by host: its first row in s->nics
  for (uint32_t h = 0; h < e.graph.num_hosts(); ++h) {
    s->host_names.push_back(e.graph.node(e.graph.hosts()[h]).name);
    const dp::EgressPort& uplink = e.fabric->port(e.graph.hosts()[h], 0);
    for (uint8_t q = 0; q < dp::kNumQueues; ++q) {
      const uint64_t received = uplink.counters().pause_frames_received[q];
      if (received == 0) continue;
      s->host_pauses.push_back(HostPauseRow{h, q, received, uplink.PausedTime(q, now).seconds()});
    }
    first_nic.push_back(static_cast<uint32_t>(s->nics.size()));
    for (uint16_t p = 0; p < fabric.num_nics(h); ++p) {
      s->nics.push_back(NicRow{h, p, fabric.nic(h, p).counters(), 0, 0});
    }
  }
  for (uint32_t id = 0; id < messages.size(); ++id) {
    const dp::SenderState& m = messages.sender[id];
    if (messages.finished(id) || !m.started() || m.started_at >= now) continue;
    const dp::MessageSpec& spec = messages.spec(id);
    NicRow& nic = s->nics[first_nic[spec.src_host] + messages.info[id].src_port];
    ++nic.active_qps;
    if (rates != nullptr) nic.rate_bps += rates->RateOf(id, now).bps();
  }
}

FlowState StateOf(const dp::MessageTable& messages, uint32_t id) {
  const dp::SenderState& m = messages.sender[id];
  if (m.completed()) return FlowState::kCompleted;
  if (m.unreachable || m.cancelled) return FlowState::kGivenUp;
  return m.started() ? FlowState::kActive : FlowState::kPending;
}

void AddFlows(const Emulation& e, const RateSampler* rates, Time now, RunSnapshot* s) {
  const dp::MessageTable& messages = e.fabric->messages();
  for (uint32_t id = 0; id < messages.size(); ++id) {
    const dp::MessageSpec& spec = messages.spec(id);
    const dp::SenderState& m = messages.sender[id];
    FlowRow r;
    r.id = id;
    r.src_host = spec.src_host;
    r.dst_host = spec.dst_host;
    r.size_bytes = spec.size_bytes;
    r.bytes_delivered = messages.receiver[id].bytes_delivered;
    r.state = StateOf(messages, id);
    if (m.started()) r.started_ns = m.started_at.fractional_ns();
    if (r.state == FlowState::kCompleted)
      r.finished_ns = messages.receiver[id].delivered_at.fractional_ns();
    if (r.state == FlowState::kActive && m.started_at < now && rates != nullptr) {
      r.rate_bps = rates->RateOf(id, now).bps();
    }
    r.cnps_received = m.cnps_received;
    r.retransmitted_packets = m.retransmitted_packets;
    s->flows.push_back(r);
  }
}

}  // namespace

const char* FlowStateName(FlowState s) {
  switch (s) {
    case FlowState::kPending:
      return "pending";
    case FlowState::kActive:
      return "active";
    case FlowState::kCompleted:
      return "completed";
    case FlowState::kGivenUp:
      return "given_up";
  }
  return "";
}

std::optional<double> RunSnapshot::Progress() const {
  if (finished && !stopped) return 1.0;
  if (mode == "realtime") {
    if (!stop_ns || *stop_ns <= 0) return std::nullopt;
    return std::min(simulated_time_ns / *stop_ns, 1.0);
  }
  double p =
      flows_total > 0 ? static_cast<double>(flows_completed + flows_given_up) / flows_total : 0.0;
  if (stop_ns && *stop_ns > 0) p = std::max(p, simulated_time_ns / *stop_ns);
  return std::min(p, 1.0);
}

Histogram FctHistogram(const dp::MessageTable& messages) {
  // Written out, so each bound is the double nearest its decimal (a product would drift).
  static constexpr double kBoundsS[] = {1e-6, 2e-6, 5e-6, 1e-5, 2e-5, 5e-5, 1e-4, 2e-4,
                                        5e-4, 1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 0.1,
                                        0.2,  0.5,  1,    2,    5,    10};
  Histogram h;
  h.upper_bounds_s.assign(std::begin(kBoundsS), std::end(kBoundsS));
  h.counts.assign(h.upper_bounds_s.size(), 0);
  for (uint32_t id = 0; id < messages.size(); ++id) {
    // The FCT flows.csv gives: from the actual start to the delivery of the last byte.
    if (!messages.completed(id)) continue;
    const double fct_s =
        (messages.receiver[id].delivered_at - messages.sender[id].started_at).seconds();
    ++h.count;
    h.sum_s += fct_s;
    const auto first = std::lower_bound(h.upper_bounds_s.begin(), h.upper_bounds_s.end(), fct_s);
    for (auto it = first; it != h.upper_bounds_s.end(); ++it)
      ++h.counts[it - h.upper_bounds_s.begin()];
  }
  return h;
}

Histogram LatenessBuckets(const dp::LatenessHistogram& lateness) {
  Histogram h;
  h.count = lateness.count();
  constexpr int kFirstPower = 6;  // 64 ns
  constexpr int kLastPower = 30;
  int b = 0;
  uint64_t below = 0;
  for (int k = kFirstPower; k <= kLastPower; ++k) {
    const uint64_t bound_ns = uint64_t{1} << k;
    // Buckets never straddle a power of two: each ends at or below 2^k - 1.
    for (; b < dp::LatenessHistogram::kNumBuckets &&
           dp::LatenessHistogram::BucketUpperNs(b) < bound_ns;
         ++b) {
      below += lateness.bucket_count(b);
    }
    h.upper_bounds_s.push_back(static_cast<double>(bound_ns) * 1e-9);
    h.counts.push_back(below);
  }
  // The histogram keeps no sum: each event counts at its bucket's upper edge, at most 1/32 above.
  for (int i = 0; i < dp::LatenessHistogram::kNumBuckets; ++i) {
    h.sum_s += static_cast<double>(lateness.bucket_count(i)) *
               static_cast<double>(dp::LatenessHistogram::BucketUpperNs(i)) * 1e-9;
  }
  return h;
}

RunSnapshot TakeSnapshot(const SnapshotSource& source, const RunProgress& progress,
                         bool with_flows) {
  const Emulation& e = *source.emulation;
  const Time now = e.sched.Now();
  RunSnapshot s;
  s.mode = source.mode;
  s.scenario = source.scenario;
  s.finished = progress.finished;
  s.stopped = progress.stopped;
  s.simulated_time_ns = now.fractional_ns();
  s.stop_ns = source.stop_ns;
  s.wall_time_s = progress.wall_time_s;
  s.events = progress.events;
  s.pace = source.pace;
  s.read_only_reason = progress.read_only_reason;
  const dp::MessageTable& messages = e.fabric->messages();
  s.flows_total = messages.size();
  for (uint32_t id = 0; id < messages.size(); ++id) {
    switch (StateOf(messages, id)) {
      case FlowState::kPending:
        ++s.flows_pending;
        break;
      case FlowState::kActive:
        ++s.flows_active;
        break;
      case FlowState::kCompleted:
        ++s.flows_completed;
        break;
      case FlowState::kGivenUp:
        ++s.flows_given_up;
        break;
    }
  }
  s.totals = e.fabric->Totals();
  AddQueues(e, now, &s);
  AddHosts(e, source.rates, now, &s);
  s.fct = FctHistogram(messages);
  if (progress.lateness != nullptr) s.lateness = LatenessBuckets(*progress.lateness);
  s.has_flows = with_flows;
  if (with_flows) AddFlows(e, source.rates, now, &s);
  return s;
}

}  // namespace fe::control::api
