#include "control/api/metrics_text.h"

#include <charconv>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "dataplane/drop_reason.h"

namespace fe::control::api {

namespace {

// A vector, not an initializer_list: helpers return label sets by value.
using Labels = std::vector<std::pair<const char*, std::string>>;

std::string Number(double v) {
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  return ec == std::errc() ? std::string(buf, end) : "NaN";
}
std::string Number(uint64_t v) { return std::to_string(v); }
std::string Number(uint32_t v) { return std::to_string(v); }

// Label values escape backslash, double quote and newline (the format's three escapes).
std::string Escaped(const std::string& v) {
  std::string out;
  for (const char c : v) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

class Writer {
 public:
  // HELP and TYPE of a family; its samples follow.
  void Family(const char* name, const char* type, const char* help) {
    out_ += "# HELP ";
    out_ += name;
    out_ += ' ';
    out_ += help;
    out_ += "\n# TYPE ";
    out_ += name;
    out_ += ' ';
    out_ += type;
    out_ += '\n';
  }
  template <typename T>
  void Sample(const char* name, const Labels& labels, T value) {
    out_ += name;
    if (labels.size() > 0) {
      out_ += '{';
      const char* separator = "";
      for (const auto& [key, v] : labels) {
        out_ += separator;
        out_ += key;
        out_ += "=\"";
        out_ += Escaped(v);
        out_ += '"';
        separator = ",";
      }
      out_ += '}';
    }
    out_ += ' ';
    out_ += Number(value);
    out_ += '\n';
  }
  void HistogramFamily(const char* name, const char* help, const Histogram& h) {
    Family(name, "histogram", help);
    const std::string bucket = std::string(name) + "_bucket";
    for (size_t i = 0; i < h.upper_bounds_s.size(); ++i) {
      Sample(bucket.c_str(), {{"le", Number(h.upper_bounds_s[i])}}, h.counts[i]);
    }
    Sample(bucket.c_str(), {{"le", "+Inf"}}, h.count);
    Sample((std::string(name) + "_sum").c_str(), {}, h.sum_s);
    Sample((std::string(name) + "_count").c_str(), {}, h.count);
  }
  // A family with one sample per row: `value` is a member pointer or a callable of the row.
  template <typename Row, typename LabelsOf, typename Value>
  void PerRow(const char* name, const char* type, const char* help, const std::vector<Row>& rows,
              const LabelsOf& labels, const Value& value) {
    Family(name, type, help);
    for (const Row& row : rows) Sample(name, labels(row), std::invoke(value, row));
  }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

void Run(const RunSnapshot& s, Writer& w) {
  w.Family("fabric_emu_info", "gauge", "The run: its mode (software or realtime) and scenario.");
  w.Sample("fabric_emu_info", {{"mode", s.mode}, {"scenario", s.scenario}}, uint64_t{1});
  w.Family("fabric_emu_run_finished", "gauge", "1 once the run has ended and written its outputs.");
  w.Sample("fabric_emu_run_finished", {}, uint64_t{s.finished ? 1u : 0u});
  w.Family("fabric_emu_simulated_time_seconds", "gauge",
           "Emulated time reached (real time since the start in real-time mode).");
  w.Sample("fabric_emu_simulated_time_seconds", {}, s.simulated_time_ns * 1e-9);
  if (const std::optional<double> progress = s.Progress()) {
    w.Family("fabric_emu_progress_ratio", "gauge",
             "Share of the run done: flows finished, or the share of the stop time gone.");
    w.Sample("fabric_emu_progress_ratio", {}, *progress);
  }
  w.Family("fabric_emu_events_total", "counter", "Scheduler events run.");
  w.Sample("fabric_emu_events_total", {}, s.events);
  w.Family("fabric_emu_flows", "gauge", "Flows (messages) by state.");
  for (const auto& [state, n] : {std::pair{FlowState::kPending, s.flows_pending},
                                 {FlowState::kActive, s.flows_active},
                                 {FlowState::kCompleted, s.flows_completed},
                                 {FlowState::kGivenUp, s.flows_given_up}}) {
    w.Sample("fabric_emu_flows", {{"state", FlowStateName(state)}}, n);
  }
  w.Family("fabric_emu_packet_hops_total", "counter", "Frames that crossed one link.");
  w.Sample("fabric_emu_packet_hops_total", {}, s.totals.packet_hops);
  w.Family("fabric_emu_wire_bytes_total", "counter",
           "Bytes on all wires, preamble and inter-frame gap included.");
  w.Sample("fabric_emu_wire_bytes_total", {}, s.totals.wire_bytes);
  w.Family("fabric_emu_drops_total", "counter",
           "Packets dropped anywhere in the fabric (switches, NICs, links), by reason.");
  for (size_t r = 0; r < s.totals.drops.packets.size(); ++r) {
    w.Sample("fabric_emu_drops_total",
             {{"reason", dp::DropReasonName(static_cast<dp::DropReason>(r))}},
             s.totals.drops.packets[r]);
  }
}

void Ports(const RunSnapshot& s, Writer& w) {
  const auto labels = [&s](const PortRow& p) {
    return Labels{{"switch", s.switch_names[p.switch_index]}, {"port", Number(uint32_t{p.port})}};
  };
  w.PerRow("fabric_emu_port_transmitted_bytes_total", "counter",
           "Bytes a switch egress port put on its wire, preamble and inter-frame gap included.",
           s.ports, labels, &PortRow::tx_wire_bytes);
  w.PerRow("fabric_emu_port_transmitted_packets_total", "counter",
           "Frames a switch egress port sent.", s.ports, labels, &PortRow::tx_packets);
}

void Queues(const RunSnapshot& s, Writer& w) {
  const auto labels = [&s](const QueueRow& q) {
    return Labels{{"switch", s.switch_names[q.switch_index]},
                  {"port", Number(uint32_t{q.port})},
                  {"priority", Number(uint32_t{q.priority})}};
  };
  w.PerRow("fabric_emu_queue_depth_bytes", "gauge", "Bytes queued now at a switch egress queue.",
           s.queues, labels, &QueueRow::depth_bytes);
  w.PerRow("fabric_emu_queue_max_depth_bytes", "gauge", "Most bytes the queue has held.", s.queues,
           labels, &QueueRow::max_depth_bytes);
  w.PerRow("fabric_emu_queue_ecn_marks_total", "counter", "ECT packets the queue marked CE.",
           s.queues, labels, &QueueRow::ecn_marks);
  w.Family("fabric_emu_queue_drops_total", "counter", "Packets the queue dropped, by reason.");
  for (const QueueRow& q : s.queues) {
    for (size_t r = 0; r < dp::kQueueDropReasons.size(); ++r) {
      Labels with_reason = labels(q);
      with_reason.emplace_back("reason", dp::DropReasonName(dp::kQueueDropReasons[r]));
      w.Sample("fabric_emu_queue_drops_total", with_reason, q.drops[r]);
    }
  }
  w.PerRow("fabric_emu_queue_pause_frames_sent_total", "counter",
           "PFC pause frames (XOFF and refreshes) the switch sent upstream for this queue's "
           "ingress priority.",
           s.queues, labels, &QueueRow::pause_frames_sent);
  w.PerRow("fabric_emu_queue_resume_frames_sent_total", "counter",
           "PFC resume frames (XON, zero quanta) the switch sent.", s.queues, labels,
           &QueueRow::resume_frames_sent);
  w.PerRow("fabric_emu_queue_pause_frames_received_total", "counter",
           "PFC frames received from the link's peer pausing this egress queue.", s.queues, labels,
           &QueueRow::pause_frames_received);
  w.PerRow("fabric_emu_queue_paused_seconds_total", "counter",
           "Time the egress queue spent paused by PFC.", s.queues, labels, &QueueRow::paused_s);
}

void Hosts(const RunSnapshot& s, Writer& w) {
  const auto host_labels = [&s](const HostPauseRow& h) {
    return Labels{{"host", s.host_names[h.host]}, {"priority", Number(uint32_t{h.priority})}};
  };
  w.PerRow("fabric_emu_host_pause_frames_received_total", "counter",
           "PFC frames a host uplink received from its edge switch (hosts ever paused only).",
           s.host_pauses, host_labels, &HostPauseRow::pause_frames_received);
  w.PerRow("fabric_emu_host_paused_seconds_total", "counter",
           "Time a host uplink spent paused by PFC.", s.host_pauses, host_labels,
           &HostPauseRow::paused_s);
  const auto nic_labels = [&s](const NicRow& n) {
    return Labels{{"host", s.host_names[n.host]}, {"port", Number(uint32_t{n.port})}};
  };
  struct NicCounter {
    const char* name;
    const char* help;
    uint64_t dp::NicCounts::*field;
  };
  for (const NicCounter& c : {
           NicCounter{"fabric_emu_nic_cnps_sent_total", "CNPs the NIC sent (notification point).",
                      &dp::NicCounts::cnps_sent},
           NicCounter{"fabric_emu_nic_cnps_received_total",
                      "CNPs the NIC received (reaction point).", &dp::NicCounts::cnps_received},
           NicCounter{"fabric_emu_nic_sent_payload_bytes_total",
                      "Payload bytes the NIC sent, retransmissions included.",
                      &dp::NicCounts::payload_bytes_sent},
           NicCounter{"fabric_emu_nic_received_payload_bytes_total",
                      "Payload bytes the NIC delivered in order to its messages.",
                      &dp::NicCounts::payload_bytes_received},
           NicCounter{"fabric_emu_nic_sent_data_packets_total",
                      "Data packets the NIC sent, retransmissions included.",
                      &dp::NicCounts::data_packets_sent},
           NicCounter{"fabric_emu_nic_retransmitted_packets_total",
                      "Data packets the NIC sent again.", &dp::NicCounts::retransmitted_packets},
       }) {
    w.PerRow(c.name, "counter", c.help, s.nics, nic_labels,
             [&c](const NicRow& n) { return n.counters.*c.field; });
  }
  // Prometheus' base unit is the byte: bits per second / 8.
  w.PerRow("fabric_emu_nic_rate_bytes_per_second", "gauge",
           "Sum of the current congestion-control rates of the NIC's sending QPs.", s.nics,
           nic_labels, [](const NicRow& n) { return static_cast<double>(n.rate_bps) / 8; });
  w.PerRow("fabric_emu_nic_active_qps", "gauge", "QPs of the NIC sending a message now.", s.nics,
           nic_labels, &NicRow::active_qps);
}

}  // namespace

std::string MetricsText(const RunSnapshot& snapshot) {
  Writer w;
  Run(snapshot, w);
  Ports(snapshot, w);
  Queues(snapshot, w);
  Hosts(snapshot, w);
  w.HistogramFamily("fabric_emu_flow_completion_time_seconds",
                    "Completion time of the completed flows, from their start to the delivery of "
                    "their last byte.",
                    snapshot.fct);
  if (snapshot.lateness) {
    w.HistogramFamily("fabric_emu_event_lateness_seconds",
                      "How late real-time events ran after their due time (whole nanoseconds; "
                      "_sum counts each event at its fine bucket's upper edge).",
                      *snapshot.lateness);
  }
  return w.Take();
}

}  // namespace fe::control::api
