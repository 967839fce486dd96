#include "control/scenario/load_balancing_params.h"

#include <cmath>

namespace fe::control {

namespace {

using fabric_emu::LoadBalancing;

cong::LbPolicy PolicyOf(LoadBalancing::Policy p) {
  switch (p) {
    case LoadBalancing::WEIGHTED:
      return cong::LbPolicy::kWeighted;
    case LoadBalancing::FLOWLET:
      return cong::LbPolicy::kFlowlet;
    case LoadBalancing::ADAPTIVE:
      return cong::LbPolicy::kAdaptive;
    case LoadBalancing::SPRAY:
      return cong::LbPolicy::kSpray;
    default:
      return cong::LbPolicy::kHash;
  }
}

}  // namespace

cong::LbParams BuildLbParams(const LoadBalancing& lb) {
  cong::LbParams p;
  p.policy = PolicyOf(lb.policy());
  p.flowlet_gap = Time::FromNs(lb.flowlet_gap_ns());
  p.flowlet_table_entries = static_cast<uint32_t>(lb.flowlet_table_entries());
  p.adaptive_per_packet = lb.adaptive_granularity() == LoadBalancing::PER_PACKET;
  p.queue_band_bytes = lb.queue_band_bytes();
  p.utilisation_window = Time::FromNs(lb.utilisation_window_ns());
  p.spray_order = lb.spray_order() == LoadBalancing::ROUND_ROBIN ? cong::SprayOrder::kRoundRobin
                                                                 : cong::SprayOrder::kRandom;
  return p;
}

}  // namespace fe::control
