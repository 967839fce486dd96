#include "control/serve/serve_summary.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

#include "control/report/json_text.h"
#include "dataplane/addressing.h"
#include "dataplane/drop_reason.h"

namespace fe::control {

namespace {

using Json = nlohmann::ordered_json;

Json Drops(const dp::DropCounters& d) {
  Json j = Json::object();
  for (size_t r = 0; r < d.packets.size(); ++r) {
    j[dp::DropReasonName(static_cast<dp::DropReason>(r))] = d.packets[r];
  }
  return j;
}

std::string Ipv4(uint32_t ip) {
  char s[16];
  std::snprintf(s, sizeof(s), "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 0xff, (ip >> 8) & 0xff,
                ip & 0xff);
  return s;
}

Json Lateness(const dp::LatenessHistogram& h) {
  Json j;
  j["events"] = h.count();
  j["p50_ns"] = h.QuantileNs(0.50);
  j["p99_ns"] = h.QuantileNs(0.99);
  j["max_ns"] = h.max_ns();
  j["later_than_1us"] = h.late_over_1us();
  return j;
}

// Each lcore's passes and how it spent the run, as shares of the elapsed time.
Json Lcores(const dp::RealtimeStats& loop) {
  Json lcores = Json::array();
  const double elapsed_ps = std::max<double>(1, static_cast<double>(loop.elapsed.ps()));
  auto share = [elapsed_ps](Time t) { return static_cast<double>(t.ps()) / elapsed_ps; };
  for (const dp::LcoreStats& l : loop.lcores) {
    Json o;
    o["lcore"] = l.lcore;
    o["role"] = l.role;
    o["passes"] = l.passes;
    o["pass_gap"] = Json{{"p50_ns", l.pass_gap.QuantileNs(0.50)},
                         {"p99_ns", l.pass_gap.QuantileNs(0.99)},
                         {"max_ns", l.pass_gap.max_ns()}};
    o["time_share"] = Json{{"rx", share(l.rx)},
                           {"events", share(l.events)},
                           {"enter", share(l.enter)},
                           {"tx", share(l.tx)}};
    lcores.push_back(o);
  }
  return lcores;
}

// A real port: its real host's side, its device's counters and what was lost before either.
Json Port(const ServePortReport& p) {
  Json q;
  q["device_args"] = p.device_args;
  q["host"] = p.host;
  q["host_ip"] = Ipv4(dp::HostIp(p.host));
  q["rx_frames"] = p.host_side.rx_frames;
  q["rx_forwarded"] = p.host_side.rx_forwarded;
  q["arp_replies"] = p.host_side.arp_replies;
  q["arp_ignored"] = p.host_side.arp_ignored;
  q["arp_probes"] = p.host_side.arp_probes;
  q["pause_frames_rx"] = p.host_side.mac_control_rx;
  q["host_mac_learned"] = p.host_mac_learned;
  q["uplink_overflow"] = p.host_side.uplink_overflow;
  q["rx_drops"] = Drops(p.host_side.rx_drops);
  q["tx_frames"] = p.host_side.tx_frames;
  q["tx_pause_frames"] = p.host_side.tx_pause_frames;
  q["tx_ce_frames"] = p.host_side.tx_ce_frames;
  q["tx_virtual_dropped"] = p.host_side.tx_virtual_dropped;
  q["device_rx_packets"] = p.device.rx_packets;
  q["device_tx_packets"] = p.device.tx_packets;
  q["device_tx_dropped"] = p.device.tx_dropped;
  q["device_rx_bursts"] = p.device.rx_bursts;
  q["device_tx_bursts"] = p.device.tx_bursts;
  q["rx_lost"] = Json{{"total", p.rx_lost.total()},
                      {"device_missed", p.rx_lost.missed},
                      {"device_errors", p.rx_lost.errors},
                      {"device_no_mbuf", p.rx_lost.no_mbuf},
                      {"kernel_ring", p.rx_lost.kernel_ring}};
  return q;
}

}  // namespace

std::string ServeSummaryJson(const ServeReport& r) {
  Json j;
  j["mode"] = "realtime";
  j["scenario"] = r.scenario_name;
  j["seed"] = r.seed;
  j["hosts"] = r.hosts;
  j["switches"] = r.switches;
  j["eal_args"] = r.eal_args;
  j["two_lcores"] = r.two_lcores;
  j["stopped_by"] = r.stopped_by;
  j["elapsed_s"] = r.loop.elapsed.seconds();
  j["loop_iterations"] = r.loop.iterations;
  j["events_run"] = r.loop.events_run;
  j["lateness"] = Lateness(r.loop.lateness);
  j["behind_threshold_ns"] = r.behind_threshold.ns();
  j["events_behind"] = r.loop.events_behind;
  j["fell_behind"] = r.loop.fell_behind();
  j["ring_drops"] = r.loop.ring_drops;
  j["lcores"] = Lcores(r.loop);
  Json ports = Json::array();
  for (const ServePortReport& p : r.ports) ports.push_back(Port(p));
  j["ports"] = ports;
  j["messages"] = r.messages;
  j["messages_delivered"] = r.messages_delivered;
  j["messages_left_out"] = r.messages_left_out;
  j["packet_hops"] = r.fabric.packet_hops;
  j["alloc_failures"] = r.fabric.nics.alloc_failures;
  j["fabric_drops"] = Drops(r.fabric.drops);
  j["links"] = r.links;
  j["wire_bytes"] = r.fabric.wire_bytes;
  j["switch_queues"] = kSplicedMember;
  j["paused_host_uplinks"] = r.paused_host_uplinks;
  j["mbufs_freed_at_teardown"] = r.mbufs_freed_at_teardown;
  j["mbufs_in_use_at_exit"] = r.fabric_pool_in_use + r.rx_pool_in_use;
  j["fabric_pool_in_use_at_exit"] = r.fabric_pool_in_use;
  j["rx_pool_in_use_at_exit"] = r.rx_pool_in_use;
  return SpliceMember(j.dump(2), "switch_queues", r.switch_queues, "\n");
}

std::string ServeProgressLine(const dp::RealtimeProgress& p, Time behind_threshold) {
  char line[256];
  const dp::LatenessHistogram& h = p.lateness;
  int n = std::snprintf(
      line, sizeof(line),
      "serve: %.1f s, rx %llu tx %llu frames, lateness p50 %.2f us p99 %.2f us max %.2f us, "
      "%llu events > 1 us",
      p.now.seconds(), static_cast<unsigned long long>(p.rx_frames),
      static_cast<unsigned long long>(p.tx_frames), static_cast<double>(h.QuantileNs(0.5)) * 1e-3,
      static_cast<double>(h.QuantileNs(0.99)) * 1e-3, static_cast<double>(h.max_ns()) * 1e-3,
      static_cast<unsigned long long>(h.late_over_1us()));
  std::string s(line, n > 0 ? static_cast<size_t>(n) : 0);
  // Loss before the emulator is invisible to its own counters: say it every time, per port.
  s += ", lost on the way in";
  for (const uint64_t lost : p.rx_lost) s += " " + std::to_string(lost);
  if (p.rx_lost.empty()) s += " none (no real port)";
  // Each lcore's longest wait between looking at its frames: its own lateness.
  s += ", max pass gap";
  for (const uint64_t gap : p.max_pass_gap_ns) {
    std::snprintf(line, sizeof(line), " %.2f us", static_cast<double>(gap) * 1e-3);
    s += line;
  }
  if (p.events_behind > 0) {
    std::snprintf(line, sizeof(line), " | FALLING BEHIND: %llu events ran more than %.0f us late",
                  static_cast<unsigned long long>(p.events_behind),
                  static_cast<double>(behind_threshold.ns()) * 1e-3);
    s += line;
  }
  return s + "\n";
}

}  // namespace fe::control
