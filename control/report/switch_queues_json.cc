#include "control/report/switch_queues_json.h"

#include <utility>
#include <vector>

#include "control/report/json_text.h"
#include "dataplane/drop_reason.h"

namespace fe::control {

namespace {

using Json = nlohmann::ordered_json;

}  // namespace

std::string SwitchQueuesText(const Emulation& e) {
  const Time now = e.sched.Now();
  const dp::Fabric& f = *e.fabric;
  // The queues where anything happened, first: the text's room is then known.
  struct QueueRef {
    uint32_t sw;
    uint16_t port;
    uint8_t queue;
  };
  std::vector<QueueRef> written;
  for (size_t i = 0; i < f.num_switches(); ++i) {
    const dp::Switch& sw = f.switch_at(i);
    for (uint16_t p = 0; p < sw.num_ports(); ++p) {
      const dp::PortCounters pc = f.port(sw.node(), p).counters();
      for (uint8_t q = 0; q < dp::kNumQueues; ++q) {
        const dp::SwitchQueueCounters& c = sw.queue_counters(p, q);
        if (pc.max_queue_bytes[q] != 0 || c.ecn_marks != 0 || c.drops.total_packets() != 0 ||
            c.pause_frames_sent != 0 || c.resume_frames_sent != 0 ||
            pc.pause_frames_received[q] != 0) {
          written.push_back(QueueRef{static_cast<uint32_t>(i), p, q});
        }
      }
    }
  }
  // An entry without drops takes some 330 bytes.
  constexpr size_t kEntryBytes = 400;
  JsonTextWriter out(1);
  out.Reserve(written.size() * kEntryBytes);
  out.BeginArray();
  for (const QueueRef& ref : written) {
    const dp::Switch& sw = f.switch_at(ref.sw);
    const uint16_t p = ref.port;
    const uint8_t q = ref.queue;
    const dp::EgressPort& port = f.port(sw.node(), p);
    const dp::PortCounters pc = port.counters();
    const dp::SwitchQueueCounters& c = sw.queue_counters(p, q);
    out.BeginObject();
    out.Key("switch");
    out.Value(e.graph.node(sw.node()).name);
    out.Key("port");
    out.Value(uint64_t{p});
    out.Key("queue");
    out.Value(uint64_t{q});
    out.Key("max_depth_bytes");
    out.Value(uint64_t{pc.max_queue_bytes[q]});
    out.Key("mean_depth_bytes");
    out.Value(now.ps() > 0 ? port.QueueByteTime(q, now) / static_cast<double>(now.ps()) : 0.0);
    out.Key("ecn_marks");
    out.Value(c.ecn_marks);
    out.Key("drops");
    out.BeginObject();
    for (size_t r = 0; r < c.drops.packets.size(); ++r) {
      if (c.drops.packets[r] == 0) continue;
      out.Key(dp::DropReasonName(static_cast<dp::DropReason>(r)));
      out.Value(c.drops.packets[r]);
    }
    out.EndObject();
    out.Key("pause_frames_sent");
    out.Value(c.pause_frames_sent);
    out.Key("resume_frames_sent");
    out.Value(c.resume_frames_sent);
    out.Key("pause_frames_received");
    out.Value(pc.pause_frames_received[q]);
    out.Key("paused_time_ns");
    out.Value(port.PausedTime(q, now).fractional_ns());
    if (port.credit_port() != nullptr) {
      out.Key("credit_blocked_time_ns");
      out.Value(port.CreditBlockedTime(q, now).fractional_ns());
    }
    out.EndObject();
  }
  out.EndArray();
  return std::move(out).Release();
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
                         {"paused_time_ns", port.PausedTime(q, now).fractional_ns()}});
    }
  }
  return out;
}

}  // namespace fe::control
