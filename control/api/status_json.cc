#include "control/api/status_json.h"

#include <nlohmann/json.hpp>

namespace fe::control::api {

namespace {

using Json = nlohmann::ordered_json;

bool Keeps(FlowFilter filter, FlowState state) {
  switch (filter) {
    case FlowFilter::kActive:
      return state == FlowState::kActive;
    case FlowFilter::kCompleted:
      return state == FlowState::kCompleted;
    case FlowFilter::kPending:
      return state == FlowState::kPending;
    case FlowFilter::kGivenUp:
      return state == FlowState::kGivenUp;
    case FlowFilter::kAll:
      return true;
  }
  return false;
}

Json Optional(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

}  // namespace

std::optional<FlowFilter> ParseFlowFilter(std::string_view state) {
  if (state.empty() || state == "active") return FlowFilter::kActive;
  if (state == "completed") return FlowFilter::kCompleted;
  if (state == "pending") return FlowFilter::kPending;
  if (state == "given_up") return FlowFilter::kGivenUp;
  if (state == "all") return FlowFilter::kAll;
  return std::nullopt;
}

std::string StatusJson(const RunSnapshot& s) {
  const dp::FabricTotals& t = s.totals;
  uint64_t ecn_marks = 0;
  uint64_t pause_sent = 0;
  uint64_t pause_received = 0;
  for (const QueueRow& q : s.queues) {
    ecn_marks += q.ecn_marks;
    pause_sent += q.pause_frames_sent;
    pause_received += q.pause_frames_received;
  }
  Json j;
  j["mode"] = s.mode;
  j["scenario"] = s.scenario;
  j["state"] = !s.finished ? "running" : s.stopped ? "stopped" : "finished";
  j["simulated_time_ns"] = s.simulated_time_ns;
  j["stop_ns"] = Optional(s.stop_ns);
  j["wall_time_s"] = s.wall_time_s;
  j["pace"] = Optional(s.pace);
  const std::optional<double> progress = s.Progress();
  j["progress"] = progress ? Json(*progress) : Json(nullptr);
  j["commands"] = s.read_only_reason.empty() ? Json("accepted") : Json(s.read_only_reason);
  j["flows"] = Json{{"total", s.flows_total},
                    {"pending", s.flows_pending},
                    {"active", s.flows_active},
                    {"completed", s.flows_completed},
                    {"given_up", s.flows_given_up}};
  // Named as in summary.json, whose final values these reach when the run ends.
  j["counters"] = Json{{"events", s.events},
                       {"bytes_sent", t.nics.payload_bytes_sent},
                       {"bytes_delivered", t.nics.payload_bytes_received},
                       {"packets_sent", t.nics.data_packets_sent},
                       {"packet_hops", t.packet_hops},
                       {"wire_bytes", t.wire_bytes},
                       {"drops", t.drops.total_packets()},
                       {"ecn_marks", ecn_marks},
                       {"cnps_sent", t.nics.cnps_sent},
                       {"cnps_received", t.nics.cnps_received},
                       {"retransmitted_packets", t.nics.retransmitted_packets},
                       {"pause_frames_sent", pause_sent},
                       {"pause_frames_received", pause_received}};
  return j.dump(2) + "\n";
}

std::string FlowsJson(const RunSnapshot& s, FlowFilter filter) {
  Json flows = Json::array();
  for (const FlowRow& f : s.flows) {
    if (!Keeps(filter, f.state)) continue;
    flows.push_back(Json{{"id", f.id},
                         {"src_host", f.src_host},
                         {"dst_host", f.dst_host},
                         {"size_bytes", f.size_bytes},
                         {"state", FlowStateName(f.state)},
                         {"bytes_delivered", f.bytes_delivered},
                         {"started_ns", Optional(f.started_ns)},
                         {"finished_ns", Optional(f.finished_ns)},
                         {"rate_bps", f.rate_bps},
                         {"cnps_received", f.cnps_received},
                         {"retransmitted_packets", f.retransmitted_packets}});
  }
  Json j;
  j["simulated_time_ns"] = s.simulated_time_ns;
  j["count"] = flows.size();
  j["flows"] = std::move(flows);
  return j.dump(2) + "\n";
}

}  // namespace fe::control::api
