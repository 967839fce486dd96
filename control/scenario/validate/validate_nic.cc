// The NIC section: transport, congestion control and its parameters.
#include <cmath>
#include <tuple>

#include "control/scenario/nic_params.h"
#include "control/scenario/validate/validation.h"
#include "dataplane/entropy.h"
#include "dataplane/int_stamp.h"
#include "dataplane/nic.h"
#include "topology/routes.h"

namespace fe::control {
namespace {

using fabric_emu::CongestionControl;
using fabric_emu::Dcqcn;
using fabric_emu::Entropy;
using fabric_emu::Hpcc;
using fabric_emu::NicConfig;
using fabric_emu::Transport;

// 256: the smallest RoCE path MTU. 9000: with its 62 bytes of Ethernet, IPv4, UDP, BTH, ICRC and
// FCS a packet still fits the 9216-byte jumbo frames datacenter switches carry.
constexpr int kMinMtuPayloadBytes = 256;
constexpr int kMaxMtuPayloadBytes = 9000;
// A rate is kept in whole bits per second.
constexpr double kMinRateMbps = 1e-6;
// HPCC's INT stack holds one record per switch egress port a data packet crosses: a fabric
// whose routes cross more switches would lose the records of the last hops, and with them the
// congestion they report.
void CheckIntStackDepth(Validation& v, const Site& hpcc_site) {
  if (!v.graph) return;
  const uint32_t hops = topo::RouteTable::Build(*v.graph).max_switch_hops();
  if (hops <= dp::kMaxStampedHops) return;
  v.out.AddWhole(hpcc_site, "HPCC's in-band telemetry holds " +
                                std::to_string(dp::kMaxStampedHops) +
                                " switch hops, but the longest route of this topology crosses " +
                                std::to_string(hops) +
                                " switches; use dcqcn or a topology with shorter routes");
}

// A rate floor: at least min_mbps, and at most the line rate (the fastest there is when the
// topology gives none).
void CheckMinRateMbps(Validation& v, const Site& s, int field, double rate_mbps, double min_mbps,
                      const std::string& why) {
  const double max_mbps = v.SlowestHostLinkGbps() * 1000;
  v.out.InRange(s, field, rate_mbps, min_mbps, max_mbps, why);
}
// Whether a field converts to the parameters' Time or Rate: finite, and small enough for their
// 64-bit picoseconds and bits per second. The sign is left to the mechanism's own ranges.
bool Converts(Validation& v, const Site& s, int field, double value, double limit,
              const std::string& why) {
  if (std::isfinite(value) && std::abs(value) <= limit) return true;
  v.out.Add(s, field,
            "must be finite and at most " + Num(limit) + " in magnitude (" + why + "), got " +
                Num(value));
  return false;
}

}  // namespace

void CheckDcqcn(Validation& v, const Dcqcn& d, const Site& s) {
  if (d.preset() == Dcqcn::PRESET_UNSPECIFIED) {
    v.out.Add(s, Dcqcn::kPresetFieldNumber, "must be PAPER or NVIDIA");
  }
  // First, that every field given converts to the parameters' units (finite, within the ranges
  // of Time and Rate); unset ones take the preset's value.
  bool converts = true;
  for (const auto& [field, has, ns] :
       {std::tuple{Dcqcn::kAlphaUpdatePeriodNsFieldNumber, d.has_alpha_update_period_ns(),
                   d.alpha_update_period_ns()},
        std::tuple{Dcqcn::kRateReduceMonitorPeriodNsFieldNumber,
                   d.has_rate_reduce_monitor_period_ns(), d.rate_reduce_monitor_period_ns()},
        std::tuple{Dcqcn::kIncreaseTimerPeriodNsFieldNumber, d.has_increase_timer_period_ns(),
                   d.increase_timer_period_ns()}}) {
    if (has) converts &= Converts(v, s, field, ns, kMaxScenarioTimeNs, "in ns: 11.6 days");
  }
  for (const auto& [field, has, mbps] :
       {std::tuple{Dcqcn::kAdditiveIncreaseMbpsFieldNumber, d.has_additive_increase_mbps(),
                   d.additive_increase_mbps()},
        std::tuple{Dcqcn::kHyperIncreaseMbpsFieldNumber, d.has_hyper_increase_mbps(),
                   d.hyper_increase_mbps()},
        std::tuple{Dcqcn::kMinRateMbpsFieldNumber, d.has_min_rate_mbps(), d.min_rate_mbps()}}) {
    if (has) {
      converts &=
          Converts(v, s, field, mbps, topo::kMaxLinkRateGbps * 1000, "in Mb/s: the fastest link");
    }
  }
  if (d.has_fast_recovery_steps()) {
    converts &= v.out.AtLeast(s, Dcqcn::kFastRecoveryStepsFieldNumber, d.fast_recovery_steps(), 0);
  }
  if (!converts) return;
  // Then DCQCN's own ranges, against the slowest NIC any QP runs on.
  cong::DcqcnParams params = BuildDcqcnParams(d);
  params.line_rate = Rate::FromGbps(v.SlowestHostLinkGbps());
  for (const cong::DcqcnError& e : cong::Check(params)) {
    const int field = DcqcnProtoField(e.field);
    if (field == 0) {
      v.out.AddWhole(s, e.reason);
    } else {
      v.out.Add(s, field, e.reason);
    }
  }
}

namespace {

void CheckHpcc(Validation& v, const Hpcc& h, const Site& s) {
  v.out.AboveUpTo(s, Hpcc::kEtaFieldNumber, h.eta(), 0.0, 1.0, "a target utilisation");
  v.out.AtLeast(s, Hpcc::kMaxStageFieldNumber, h.max_stage(), 0);
  v.out.AtLeast<int64_t>(s, Hpcc::kWAiBytesFieldNumber, h.w_ai_bytes(), 0);
  v.out.AtLeast(s, Hpcc::kExpectedFlowsFieldNumber, h.expected_flows(), 1);
  CheckMinRateMbps(v, s, Hpcc::kMinRateMbpsFieldNumber, h.min_rate_mbps(), kMinRateMbps,
                   "in Mb/s: 1 b/s up to the link rate");
  CheckIntStackDepth(v, s);
}

void CheckCongestionControl(Validation& v, const Site& s) {
  const CongestionControl& cc = v.scenario.nic().cc();
  switch (cc.algorithm_case()) {
    case CongestionControl::kNone:
      return;
    case CongestionControl::kDcqcn:
      CheckDcqcn(v, cc.dcqcn(), s.Nested(CongestionControl::kDcqcnFieldNumber));
      return;
    case CongestionControl::kHpcc:
      CheckHpcc(v, cc.hpcc(), s.Nested(CongestionControl::kHpccFieldNumber));
      return;
    case CongestionControl::ALGORITHM_NOT_SET:
      v.out.AddWhole(s, "choose one of none {}, dcqcn { ... }, hpcc { ... }");
      return;
  }
}

void CheckTransportModes(Validation& v, const Transport& t, const Site& s) {
  if (t.delivery() == Transport::DELIVERY_UNSPECIFIED) {
    v.out.Add(s, Transport::kDeliveryFieldNumber, "must be IN_ORDER or OUT_OF_ORDER");
  }
  // One bit per PSN in 64-PSN words, as the SACK blocks carry them; 65536 PSNs are 256 MB of
  // 4 KB packets in flight per QP, past any bandwidth-delay product of a fabric.
  const int window = t.reorder_window_packets();
  if (window < 64 || window > 65536 || window % 64 != 0) {
    v.out.Add(s, Transport::kReorderWindowPacketsFieldNumber,
              "must be a multiple of 64 from 64 to 65536, got " + std::to_string(window));
  }
  v.out.InRange(s, Transport::kSackResendThresholdPacketsFieldNumber,
                t.sack_resend_threshold_packets(), 0, window, "0 (off) to reorder_window_packets");
  if (!t.has_entropy()) return;
  const Site e = s.Nested(Transport::kEntropyFieldNumber);
  v.out.InRange(e, Entropy::kValuesFieldNumber, t.entropy().values(), 1,
                static_cast<int>(dp::kMaxEntropyValues),
                "source ports of the dynamic range 49152-65535");
  v.out.AtLeast(e, Entropy::kPacketsPerValueFieldNumber, t.entropy().packets_per_value(), 1);
}

}  // namespace

void ValidateNic(Validation& v) {
  const Site s = v.root.Nested(fabric_emu::Scenario::kNicFieldNumber);
  const NicConfig& nic = v.scenario.nic();
  v.out.InRange(s, NicConfig::kMtuPayloadBytesFieldNumber, nic.mtu_payload_bytes(),
                kMinMtuPayloadBytes, kMaxMtuPayloadBytes,
                "256: the smallest RoCE path MTU; 9000: with its headers a packet still fits a "
                "9216-byte jumbo frame");
  v.out.AtLeast(s, NicConfig::kAckEveryPacketsFieldNumber, nic.ack_every_packets(), 1);
  v.Duration(s, NicConfig::kCnpIntervalNsFieldNumber, nic.cnp_interval_ns(), false);
  if (nic.has_transport()) {
    // Below a microsecond a timeout fires before any round trip can end, and the senders
    // flood the fabric with resends; IB's longest local ACK timeout is 4.096 us x 2^31.
    v.out.InRange(s.Nested(NicConfig::kTransportFieldNumber),
                  fabric_emu::Transport::kRetransmitTimeoutNsFieldNumber,
                  nic.transport().retransmit_timeout_ns(), 1e3, 1e13,
                  "in ns: from 1 us to 1e13 ns (2.8 hours)");
    v.out.InRange(s.Nested(NicConfig::kTransportFieldNumber),
                  fabric_emu::Transport::kRetryCountFieldNumber, nic.transport().retry_count(), 0,
                  static_cast<int>(dp::kMaxRetryCount), "IB verbs' retry_cnt: 0 to 7");
    CheckTransportModes(v, nic.transport(), s.Nested(NicConfig::kTransportFieldNumber));
  }
  if (nic.has_cc()) CheckCongestionControl(v, s.Nested(NicConfig::kCcFieldNumber));
}

}  // namespace fe::control
