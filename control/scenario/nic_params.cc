#include "control/scenario/nic_params.h"

#include "congestion/cnp_pacer.h"
#include "congestion/dcqcn.h"
#include "congestion/hpcc.h"

namespace fe::control {

namespace {

cong::HpccParams BuildHpccParams(const fabric_emu::Hpcc& h) {
  cong::HpccParams p;
  p.eta = h.eta();
  p.max_stage = static_cast<uint32_t>(h.max_stage());
  p.w_ai_bytes = h.w_ai_bytes();
  p.expected_flows = static_cast<uint32_t>(h.expected_flows());
  p.min_rate = Rate::FromMbps(h.min_rate_mbps());
  return p;
}

}  // namespace

cong::DcqcnParams BuildDcqcnParams(const fabric_emu::Dcqcn& d) {
  cong::DcqcnParams p = d.preset() == fabric_emu::Dcqcn::NVIDIA
                            ? cong::DcqcnParams::NvidiaConnectX()
                            : cong::DcqcnParams::Sigcomm2015();
  if (d.has_g()) p.g = d.g();
  if (d.has_initial_alpha()) p.initial_alpha = d.initial_alpha();
  if (d.has_alpha_update_period_ns())
    p.alpha_update_period = Time::FromNs(d.alpha_update_period_ns());
  if (d.has_rate_reduce_monitor_period_ns()) {
    p.rate_reduce_monitor_period = Time::FromNs(d.rate_reduce_monitor_period_ns());
  }
  if (d.has_min_decrease_factor()) p.min_decrease_factor = d.min_decrease_factor();
  if (d.has_clamp_target_rate()) p.clamp_target_rate = d.clamp_target_rate();
  if (d.has_clamp_target_rate_after_time_inc()) {
    p.clamp_target_rate_after_time_inc = d.clamp_target_rate_after_time_inc();
  }
  if (d.has_increase_timer_period_ns()) {
    p.increase_timer_period = Time::FromNs(d.increase_timer_period_ns());
  }
  if (d.has_byte_counter_bytes()) p.byte_counter_bytes = d.byte_counter_bytes();
  if (d.has_fast_recovery_steps()) {
    p.fast_recovery_steps = static_cast<uint32_t>(d.fast_recovery_steps());
  }
  if (d.has_additive_increase_mbps()) {
    p.additive_increase = Rate::FromMbps(d.additive_increase_mbps());
  }
  if (d.has_hyper_increase_mbps()) p.hyper_increase = Rate::FromMbps(d.hyper_increase_mbps());
  if (d.has_min_rate_mbps()) p.min_rate = Rate::FromMbps(d.min_rate_mbps());
  return p;
}

int DcqcnProtoField(cong::DcqcnField field) {
  using fabric_emu::Dcqcn;
  switch (field) {
    case cong::DcqcnField::kLineRate:
      return 0;
    case cong::DcqcnField::kMinRate:
      return Dcqcn::kMinRateMbpsFieldNumber;
    case cong::DcqcnField::kG:
      return Dcqcn::kGFieldNumber;
    case cong::DcqcnField::kInitialAlpha:
      return Dcqcn::kInitialAlphaFieldNumber;
    case cong::DcqcnField::kAlphaUpdatePeriod:
      return Dcqcn::kAlphaUpdatePeriodNsFieldNumber;
    case cong::DcqcnField::kRateReduceMonitorPeriod:
      return Dcqcn::kRateReduceMonitorPeriodNsFieldNumber;
    case cong::DcqcnField::kMinDecreaseFactor:
      return Dcqcn::kMinDecreaseFactorFieldNumber;
    case cong::DcqcnField::kIncreaseTimerPeriod:
      return Dcqcn::kIncreaseTimerPeriodNsFieldNumber;
    case cong::DcqcnField::kByteCounterBytes:
      return Dcqcn::kByteCounterBytesFieldNumber;
    case cong::DcqcnField::kAdditiveIncrease:
      return Dcqcn::kAdditiveIncreaseMbpsFieldNumber;
    case cong::DcqcnField::kHyperIncrease:
      return Dcqcn::kHyperIncreaseMbpsFieldNumber;
  }
  return 0;
}

StatusOr<dp::NicParams> BuildNicParams(const fabric_emu::NicConfig& nic) {
  dp::NicParams p;
  p.mtu_payload_bytes = static_cast<uint32_t>(nic.mtu_payload_bytes());
  p.ack_every_packets = static_cast<uint32_t>(nic.ack_every_packets());
  p.retransmit_timeout = Time::FromNs(nic.transport().retransmit_timeout_ns());
  p.retry_count = static_cast<uint32_t>(nic.transport().retry_count());
  p.out_of_order = nic.transport().delivery() == fabric_emu::Transport::OUT_OF_ORDER;
  p.reorder_window_packets = static_cast<uint32_t>(nic.transport().reorder_window_packets());
  p.sack_resend_threshold = static_cast<uint32_t>(nic.transport().sack_resend_threshold_packets());
  p.entropy.values = static_cast<uint32_t>(nic.transport().entropy().values());
  p.entropy.packets_per_value =
      static_cast<uint32_t>(nic.transport().entropy().packets_per_value());
  switch (nic.cc().algorithm_case()) {
    case fabric_emu::CongestionControl::kDcqcn:
      p.cc = dp::CongestionControl::kDcqcn;
      p.dcqcn = BuildDcqcnParams(nic.cc().dcqcn());
      // A preset is the whole vendor behaviour: its notification point paces CNPs too.
      if (nic.cc().dcqcn().preset() == fabric_emu::Dcqcn::NVIDIA) {
        p.cnp_pacer = cong::CnpPacerParams::NvidiaConnectX();
      }
      break;
    case fabric_emu::CongestionControl::kHpcc:
      p.cc = dp::CongestionControl::kHpcc;
      p.hpcc = BuildHpccParams(nic.cc().hpcc());
      break;
    case fabric_emu::CongestionControl::kNone:
    case fabric_emu::CongestionControl::ALGORITHM_NOT_SET:
      p.cc = dp::CongestionControl::kNone;
      break;
  }
  // Given explicitly, the interval wins over any preset's.
  if (nic.has_cnp_interval_ns()) p.cnp_pacer.min_interval = Time::FromNs(nic.cnp_interval_ns());
  return p;
}

}  // namespace fe::control
