#include "dataplane/switch_config.h"

#include <string>

namespace fe::dp {

namespace {

Status Prefixed(const std::string& prefix, const Status& s) {
  return Status::Error(prefix + ": " + s.message());
}

}  // namespace

StatusOr<SwitchConfig> Compile(const SwitchParams& params, std::span<const PortLink> ports) {
  SwitchConfig c;
  StatusOr<cong::DscpMapConfig> dscp = cong::Compile(params.dscp);
  if (!dscp.ok()) return Prefixed("dscp", dscp.status());
  c.dscp = *dscp;

  cong::BufferParams buffer = params.buffer;
  buffer.num_ports = static_cast<int>(ports.size());
  buffer.priorities_in_use = 0;
  for (uint8_t prio : c.dscp.priority_of_dscp) buffer.priorities_in_use |= 1u << prio;
  if (!params.pfc_enabled) {
    for (cong::PriorityBufferParams& p : buffer.priorities) p.lossless = false;
  }
  buffer.headroom_bytes.clear();
  buffer.credit_bytes.clear();
  for (const PortLink& link : ports) {
    buffer.credit_bytes.push_back(link.credit_buffer_bytes);
    if (link.credit_buffer_bytes > 0) {  // credits, not pauses, hold its sender back
      buffer.headroom_bytes.push_back(0);
      continue;
    }
    if (params.headroom_bytes.has_value()) {
      buffer.headroom_bytes.push_back(*params.headroom_bytes);
      continue;
    }
    cong::HeadroomParams h = params.headroom;
    h.link_rate = link.rate;
    // A cable the user measured wins over the one the emulated delay implies: the headroom a
    // real switch needs follows its real cable, whatever the emulated link is set to.
    h.cable_length_m =
        params.cable_length_m.has_value()
            ? *params.cable_length_m
            : static_cast<double>(link.delay.ps()) / static_cast<double>(h.propagation_per_m.ps());
    StatusOr<int64_t> bytes = cong::ComputeHeadroomBytes(h);
    if (!bytes.ok()) return Prefixed("headroom", bytes.status());
    buffer.headroom_bytes.push_back(*bytes);
  }
  StatusOr<cong::BufferConfig> b = cong::Compile(buffer);
  if (!b.ok()) return Prefixed("buffer", b.status());
  c.buffer = std::move(b).value();

  for (int p = 0; p < cong::kNumPriorities; ++p) {
    StatusOr<cong::WredConfig> w = cong::Compile(params.wred[p]);
    if (!w.ok()) return Prefixed("wred[" + std::to_string(p) + "]", w.status());
    c.wred[p] = *w;
  }
  for (const PortLink& link : ports) {
    StatusOr<cong::PauseSenderConfig> s = cong::Compile(params.pause, link.rate);
    if (!s.ok()) return Prefixed("pause", s.status());
    c.pause.push_back(*s);
  }
  if (params.watchdog_enabled) {
    StatusOr<cong::PfcWatchdogConfig> wd = cong::Compile(params.watchdog);
    if (!wd.ok()) return Prefixed("pfc_watchdog", wd.status());
    c.watchdog = *wd;
    for (int p = 0; p < cong::kNumPriorities; ++p) {
      if (c.buffer.priorities[p].lossless) c.watchdog_queues |= static_cast<uint8_t>(1u << p);
    }
  }
  StatusOr<cong::EgressSchedulerConfig> sched = cong::Compile(params.scheduler);
  if (!sched.ok()) return Prefixed("scheduler", sched.status());
  c.scheduler = *sched;
  StatusOr<cong::LbConfig> lb = cong::Compile(params.lb);
  if (!lb.ok()) return Prefixed("load_balancing", lb.status());
  c.lb = *lb;
  c.decrement_ttl = params.decrement_ttl;
  return c;
}

}  // namespace fe::dp
