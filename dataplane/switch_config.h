// What a switch is told: the user's parameters for classification, buffer, ECN, PFC, egress
// scheduling and TTL (the scenario maps onto SwitchParams in control/), and the compiled form one
// switch runs with, which depends on its ports' links (headroom and pause timing follow each
// link's rate and length).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "congestion/buffer_admission.h"
#include "congestion/dscp_map.h"
#include "congestion/egress_scheduler.h"
#include "congestion/load_balancing_config.h"
#include "congestion/pfc_config.h"
#include "congestion/pfc_watchdog.h"
#include "congestion/wred.h"
#include "core/status.h"
#include "core/units.h"

namespace fe::dp {

struct SwitchParams {
  cong::DscpMapParams dscp;
  // num_ports and headroom_bytes are filled per switch from its links.
  cong::BufferParams buffer;
  std::array<cong::WredParams, cong::kNumPriorities> wred{};
  // Off: every priority is lossy (accounted at egress and dropped at its limit).
  bool pfc_enabled = true;
  // Headroom of each lossless PG. Unset: ComputeHeadroomBytes per ingress port, with that port's
  // link rate and a cable as long as its propagation delay at headroom.propagation_per_m.
  std::optional<int64_t> headroom_bytes;
  // Cable the computed headroom covers, on every port. Unset: as long as each port's
  // propagation delay at headroom.propagation_per_m.
  std::optional<double> cable_length_m;
  // link_rate is taken from each port's link, cable_length_m from the field above.
  cong::HeadroomParams headroom;
  cong::PauseSenderParams pause;
  // On lossless queues when PFC is on.
  bool watchdog_enabled = true;
  cong::PfcWatchdogParams watchdog;
  cong::EgressSchedulerParams scheduler;
  // Off by default: a fat-tree routes up then down and cannot loop, so TTL guards nothing there.
  bool decrement_ttl = false;
  cong::LbParams lb;
};

// The link behind one local port of a switch.
struct PortLink {
  Rate rate;
  Time delay;
  // A credit-based link: the buffer its ingress sets aside per priority (and no PFC headroom).
  int64_t credit_buffer_bytes = 0;
};

struct SwitchConfig {
  // What every packet reads first: the TTL switch next to the DSCP map, then WRED.
  bool decrement_ttl = false;
  cong::DscpMapConfig dscp;
  std::array<cong::WredConfig, cong::kNumPriorities> wred{};
  cong::BufferConfig buffer;
  std::vector<cong::PauseSenderConfig> pause;  // by local port: quanta and refresh at its rate
  uint8_t watchdog_queues = 0;                 // lossless queues the watchdog runs on
  cong::PfcWatchdogConfig watchdog;
  cong::EgressSchedulerConfig scheduler;
  cong::LbConfig lb;
};
static_assert(offsetof(SwitchConfig, decrement_ttl) == 0 &&
                  offsetof(SwitchConfig, dscp) < offsetof(SwitchConfig, wred) &&
                  offsetof(SwitchConfig, wred) < offsetof(SwitchConfig, buffer),
              "hot fields first: the TTL switch next to the DSCP map, then WRED, then the rest");
static_assert(sizeof(cong::DscpMapConfig) == cong::kNumDscp,
              "the DSCP map is one byte per DSCP, one cache line");

// Errors name the field, prefixed by the mechanism (e.g. "wred[3]: kmin_bytes ...").
StatusOr<SwitchConfig> Compile(const SwitchParams& params, std::span<const PortLink> ports);

}  // namespace fe::dp
