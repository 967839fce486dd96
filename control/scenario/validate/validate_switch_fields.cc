// The rules each field of a SwitchConfig obeys on its own.
#include <map>

#include "control/scenario/validate/validate_switch.h"

namespace fe::control {
namespace {

using fabric_emu::DscpPriority;
using fabric_emu::Pfc;
using fabric_emu::PfcWatchdog;
using fabric_emu::QueueConfig;
using fabric_emu::SwitchConfig;
using fabric_emu::Wred;

// The shared buffer keeps alpha in 16-bit fixed point.
constexpr double kMinAlpha = 1.0 / 65536;
constexpr double kMaxAlpha = 64;
// DWRR credits weight x 9216 bytes per round and takes quanta up to 2^24 bytes.
constexpr int kMaxDwrrWeight = (1 << 24) / 9216;
// The shared buffer multiplies free bytes by a 16-bit fixed-point alpha in 64 bits.
constexpr int64_t kMaxBufferBytes = int64_t{1} << 40;

}  // namespace

void CheckWredFields(Validation& v, const Wred& w, const Site& s) {
  v.out.AtLeast<int64_t>(s, Wred::kKminBytesFieldNumber, w.kmin_bytes(), 0);
  v.out.InRange(s, Wred::kPmaxFieldNumber, w.pmax(), 0.0, 1.0, "a probability");
}

// The rules each field obeys on its own, in one SwitchConfig.
void CheckSwitchFields(Validation& v, const SwitchConfig& c, const Site& s, bool top_level) {
  std::map<int, int> dscp_seen;
  for (int i = 0; i < c.dscp_to_priority_size(); ++i) {
    const DscpPriority& m = c.dscp_to_priority(i);
    const Site ms = s.Nested(SwitchConfig::kDscpToPriorityFieldNumber, i);
    if (v.out.Present(ms, DscpPriority::kDscpFieldNumber, m.has_dscp(), "a DSCP, 0..63") &&
        v.out.InRange(ms, DscpPriority::kDscpFieldNumber, m.dscp(), 0, kMaxDscp)) {
      if (const auto [it, fresh] = dscp_seen.emplace(m.dscp(), i); !fresh) {
        v.out.Add(ms, DscpPriority::kDscpFieldNumber,
                  "DSCP " + std::to_string(m.dscp()) + " is already mapped by " +
                      s.Path(SwitchConfig::kDscpToPriorityFieldNumber, it->second));
      }
    }
    if (v.out.Present(ms, DscpPriority::kPriorityFieldNumber, m.has_priority(),
                      "a priority, 0..7")) {
      v.out.InRange(ms, DscpPriority::kPriorityFieldNumber, m.priority(), 0, kPriorities - 1);
    }
  }
  v.out.InRange(s, SwitchConfig::kDefaultPriorityFieldNumber, c.default_priority(), 0,
                kPriorities - 1);
  v.out.InRange<int64_t>(s, SwitchConfig::kBufferBytesFieldNumber, c.buffer_bytes(), 1,
                         kMaxBufferBytes, "2^40: alpha x free bytes must fit in 64 bits");
  std::map<int, int> priority_seen;
  for (int i = 0; i < c.queue_size(); ++i) {
    const QueueConfig& q = c.queue(i);
    const Site qs = s.Nested(SwitchConfig::kQueueFieldNumber, i);
    if (v.out.Present(qs, QueueConfig::kPriorityFieldNumber, q.has_priority(),
                      "the priority this queue serves, 0..7") &&
        v.out.InRange(qs, QueueConfig::kPriorityFieldNumber, q.priority(), 0, kPriorities - 1)) {
      if (const auto [it, fresh] = priority_seen.emplace(q.priority(), i); !fresh) {
        v.out.Add(qs, QueueConfig::kPriorityFieldNumber,
                  "priority " + std::to_string(q.priority()) + " is already configured by " +
                      s.Path(SwitchConfig::kQueueFieldNumber, it->second));
      }
    }
    v.out.InRange(qs, QueueConfig::kAlphaFieldNumber, q.alpha(), kMinAlpha, kMaxAlpha,
                  "the buffer keeps alpha in 1/65536 steps; above 64 one queue may take it all");
    v.out.AtLeast<int64_t>(qs, QueueConfig::kReservedBytesFieldNumber, q.reserved_bytes(), 0);
    v.out.InRange(qs, QueueConfig::kDwrrWeightFieldNumber, q.dwrr_weight(), 1, kMaxDwrrWeight,
                  "a round credits weight x 9216 bytes, at most 2^24");
    if (q.has_wred()) CheckWredFields(v, q.wred(), qs.Nested(QueueConfig::kWredFieldNumber));
  }
  if (c.has_pfc()) {
    const Site ps = s.Nested(SwitchConfig::kPfcFieldNumber);
    const Pfc& p = c.pfc();
    v.out.AtLeast<int64_t>(ps, Pfc::kXoffBytesFieldNumber, p.xoff_bytes(), 0);
    v.out.AtLeast<int64_t>(ps, Pfc::kXonBytesFieldNumber, p.xon_bytes(), 0);
    v.out.AtLeast<int64_t>(ps, Pfc::kXonOffsetBytesFieldNumber, p.xon_offset_bytes(), 0);
    v.out.AtLeast<int64_t>(ps, Pfc::kHeadroomBytesFieldNumber, p.headroom_bytes(), 0);
    v.out.InRange(ps, Pfc::kCableLengthMFieldNumber, p.cable_length_m(), 0.0, 2e8,
                  "in m: 200,000 km is a second of light in fibre");
    v.LinkDelay(ps, Pfc::kResponseTimeNsFieldNumber, p.response_time_ns());
  }
  if (c.has_pfc_watchdog()) {
    const Site ws = s.Nested(SwitchConfig::kPfcWatchdogFieldNumber);
    const PfcWatchdog& w = c.pfc_watchdog();
    v.Duration(ws, PfcWatchdog::kDetectionTimeNsFieldNumber, w.detection_time_ns(), true);
    v.Duration(ws, PfcWatchdog::kRestorationTimeNsFieldNumber, w.restoration_time_ns(), true);
  }
  if (!top_level && c.tier_override_size() > 0) {
    v.out.Add(s, SwitchConfig::kTierOverrideFieldNumber,
              "an override cannot hold overrides; put every tier_override directly in switch");
  }
  if (!top_level && c.role_override_size() > 0) {
    v.out.Add(s, SwitchConfig::kRoleOverrideFieldNumber,
              "an override cannot hold overrides; put every role_override directly in switch");
  }
}

}  // namespace fe::control
