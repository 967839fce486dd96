#include "control/report/switch_queues_json.h"

#include "dataplane/drop_reason.h"

namespace fe::control {

namespace {

using Json = nlohmann::ordered_json;

double Ns(Time t) { return static_cast<double>(t.ps()) / 1000.0; }

}  // namespace

nlohmann::ordered_json SwitchQueuesJson(const Emulation& e) {
  const Time now = e.sched.Now();
  Json out = Json::array();
  const dp::Fabric& f = *e.fabric;
  for (size_t i = 0; i < f.num_switches(); ++i) {
    const dp::Switch& sw = f.switch_at(i);
    for (uint16_t p = 0; p < sw.num_ports(); ++p) {
      const dp::EgressPort& port = f.port(sw.node(), p);
      for (uint8_t q = 0; q < dp::kNumQueues; ++q) {
        const dp::SwitchQueueCounters& c = sw.queue_counters(p, q);
        const uint32_t max_bytes = port.counters().max_queue_bytes[q];
        const uint64_t received = port.counters().pause_frames_received[q];
        const Time paused = port.PausedTime(q, now);
        const uint64_t drops = c.drops.total_packets();
        if (max_bytes == 0 && c.ecn_marks == 0 && drops == 0 && c.pause_frames_sent == 0 &&
            c.resume_frames_sent == 0 && received == 0) {
          continue;
        }
        Json o;
        o["switch"] = e.graph.node(sw.node()).name;
        o["port"] = p;
        o["queue"] = q;
        o["max_depth_bytes"] = max_bytes;
        o["mean_depth_bytes"] =
            now.ps() > 0 ? port.QueueByteTime(q, now) / static_cast<double>(now.ps()) : 0.0;
        o["ecn_marks"] = c.ecn_marks;
        Json by_reason = Json::object();
        for (size_t r = 0; r < c.drops.packets.size(); ++r) {
          if (c.drops.packets[r] == 0) continue;
          by_reason[dp::DropReasonName(static_cast<dp::DropReason>(r))] = c.drops.packets[r];
        }
        o["drops"] = by_reason;
        o["pause_frames_sent"] = c.pause_frames_sent;
        o["resume_frames_sent"] = c.resume_frames_sent;
        o["pause_frames_received"] = received;
        o["paused_time_ns"] = Ns(paused);
        if (port.credit_port() != nullptr)
          o["credit_blocked_time_ns"] = Ns(port.CreditBlockedTime(q, now));
        out.push_back(o);
      }
    }
  }
  return out;
}

nlohmann::ordered_json PausedHostsJson(const Emulation& e) {
  const Time now = e.sched.Now();
  Json out = Json::array();
  for (uint32_t h = 0; h < e.graph.num_hosts(); ++h) {
    const dp::EgressPort& port = e.fabric->port(e.graph.hosts()[h], 0);
    for (uint8_t q = 0; q < dp::kNumQueues; ++q) {
      const uint64_t received = port.counters().pause_frames_received[q];
      if (received == 0) continue;
      out.push_back(Json{{"host", h},
                         {"queue", q},
                         {"pause_frames_received", received},
                         {"paused_time_ns", Ns(port.PausedTime(q, now))}});
    }
  }
  return out;
}

}  // namespace fe::control
