#include "dataplane/load_balancer.h"

#include <cassert>

#include "dataplane/egress_port.h"

namespace fe::dp {

namespace {

bool UsesFlowlets(const cong::LbConfig& c) {
  return c.policy == cong::LbPolicy::kFlowlet ||
         (c.policy == cong::LbPolicy::kAdaptive && !c.adaptive_per_packet);
}

// The hash's member, as hash ECMP picks it.
int HashMember(std::span<const uint16_t> group, uint32_t flow_hash) {
  return cong::PickEcmpMember(flow_hash, static_cast<uint16_t>(group.size()));
}

}  // namespace

LoadBalancer::LoadBalancer(const cong::LbConfig& config, EgressPortSpan ports, uint64_t random_seed,
                           const topo::Graph* graph, topo::NodeId node)
    : config_(config),
      ports_(ports),
      flowlets_(UsesFlowlets(config) ? config.flowlet_table_entries : 0),
      loads_(config.policy == cong::LbPolicy::kAdaptive ? ports.size() : 0),
      turns_((config.policy == cong::LbPolicy::kSpray &&
              config.spray_order == cong::SprayOrder::kRoundRobin) ||
                     config.adaptive_per_packet
                 ? config.flowlet_table_entries
                 : 0),
      flowlet_changes_(ports.size(), 0),
      random_(random_seed),
      graph_(graph),
      node_(node) {}

void LoadBalancer::SetRoutes(const topo::RouteTable& routes) {
  if (config_.policy != cong::LbPolicy::kWeighted) return;
  assert(graph_ != nullptr);
  weights_ = topo::WcmpWeights::Build(*graph_, routes, node_);
}

int LoadBalancer::Weighted(std::span<const uint16_t> group, uint32_t flow_hash,
                           uint32_t dst_host) const {
  const std::span<const uint32_t> cumulative = weights_.CumulativeOf(dst_host);
  if (cumulative.size() != group.size()) return HashMember(group, flow_hash);
  // The hash scaled into [0, total), as PickEcmpMember scales it into [0, members).
  const auto r = static_cast<uint32_t>((uint64_t{flow_hash} * cumulative.back()) >> 32);
  int m = 0;
  while (cumulative[m] <= r) ++m;
  return m;
}

int LoadBalancer::LeastLoaded(std::span<const uint16_t> group, uint32_t flow_hash, QueueId queue,
                              Time now) {
  const auto n = static_cast<int>(group.size());
  const int start =
      config_.adaptive_per_packet ? InTurn(group, flow_hash) : HashMember(group, flow_hash);
  int best = start;
  int best_quality = INT32_MAX;
  for (int i = 0, m = start; i < n; ++i, m = m + 1 == n ? 0 : m + 1) {
    const uint16_t p = group[m];
    const EgressPort& port = ports_[p];
    cong::PortLoad& load = loads_[p];
    load.Update(now.ps(), port.tx_wire_bytes(), config_.utilisation_window_ps);
    // Bytes the link carries in one window at full rate.
    const double full_bytes = static_cast<double>(port.rate().bps()) / 8.0 *
                              static_cast<double>(config_.utilisation_window_ps) * 1e-12;
    const int quality = cong::MemberQuality(port.queue_bytes(queue), config_.queue_band_bytes,
                                            load.bytes / full_bytes);
    if (quality < best_quality) {
      best_quality = quality;
      best = m;
    }
  }
  return best;
}

int LoadBalancer::Spray(std::span<const uint16_t> group, uint32_t flow_hash) {
  const auto n = static_cast<uint16_t>(group.size());
  if (config_.spray_order == cong::SprayOrder::kRandom) {
    return cong::PickEcmpMember(static_cast<uint32_t>(random_.NextU64() >> 32), n);
  }
  return InTurn(group, flow_hash);
}

int LoadBalancer::InTurn(std::span<const uint16_t> group, uint32_t flow_hash) {
  const auto n = static_cast<int>(group.size());
  // A turn past the group's size was counted in another group (a flow sharing the slot).
  uint16_t& turn = turns_[flow_hash & (turns_.size() - 1)];
  const int t = turn < n ? turn : 0;
  turn = static_cast<uint16_t>(t + 1 == n ? 0 : t + 1);
  const int m = HashMember(group, flow_hash) + t;
  return m < n ? m : m - n;
}

int LoadBalancer::NewFlowlet(std::span<const uint16_t> group, uint32_t flow_hash, QueueId queue,
                             Time now, uint64_t* slot, uint64_t now_ticks) {
  const int m = config_.policy == cong::LbPolicy::kAdaptive
                    ? LeastLoaded(group, flow_hash, queue, now)
                    : cong::PickEcmpMember(static_cast<uint32_t>(random_.NextU64() >> 32),
                                           static_cast<uint16_t>(group.size()));
  const int last = cong::FlowletTable::LastMember(*slot);
  if (last >= 0 && last != m) ++flowlet_changes_[group[m]];
  *slot = cong::FlowletTable::Pack(now_ticks, m);
  return m;
}

uint16_t LoadBalancer::Peek(std::span<const uint16_t> group, uint32_t flow_hash, uint32_t dst_host,
                            Time now) const {
  switch (config_.policy) {
    case cong::LbPolicy::kWeighted:
      return group[Weighted(group, flow_hash, dst_host)];
    case cong::LbPolicy::kFlowlet:
    case cong::LbPolicy::kAdaptive:
      if (!config_.adaptive_per_packet) {
        const uint64_t slot = *flowlets_.SlotOf(flow_hash);
        const int last = cong::FlowletTable::LastMember(slot);
        if (cong::FlowletTable::Active(slot, cong::TicksOf(now), config_.flowlet_gap_ticks) &&
            last < static_cast<int>(group.size())) {
          return group[last];
        }
      }
      break;
    case cong::LbPolicy::kHash:
    case cong::LbPolicy::kSpray:
      break;
  }
  return group[HashMember(group, flow_hash)];
}

uint16_t LoadBalancer::Pick(std::span<const uint16_t> group, uint32_t flow_hash, uint32_t dst_host,
                            QueueId queue, Time now) {
  switch (config_.policy) {
    case cong::LbPolicy::kHash:
      break;
    case cong::LbPolicy::kWeighted:
      return group[Weighted(group, flow_hash, dst_host)];
    case cong::LbPolicy::kSpray:
      return group[Spray(group, flow_hash)];
    case cong::LbPolicy::kAdaptive:
      if (config_.adaptive_per_packet) return group[LeastLoaded(group, flow_hash, queue, now)];
      [[fallthrough]];
    case cong::LbPolicy::kFlowlet: {
      uint64_t* slot = flowlets_.SlotOf(flow_hash);
      const uint64_t now_ticks = cong::TicksOf(now);
      const int last = cong::FlowletTable::LastMember(*slot);
      // A slot's member past the group's size was taken in another group (a flow sharing the
      // slot, or routes that changed): the flowlet starts anew.
      if (cong::FlowletTable::Active(*slot, now_ticks, config_.flowlet_gap_ticks) &&
          last < static_cast<int>(group.size())) {
        *slot = cong::FlowletTable::Pack(now_ticks, last);
        return group[last];
      }
      return group[NewFlowlet(group, flow_hash, queue, now, slot, now_ticks)];
    }
  }
  return group[HashMember(group, flow_hash)];
}

}  // namespace fe::dp
