#include "control/sweep/headline_results.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/json_nesting.h"

namespace fe::control {
namespace {

using Json = nlohmann::json;

// `v` as summary.json writes it: the shortest decimal that reads back to the same double.
HeadlineValue Figure(std::string name, const Json& v) {
  return HeadlineValue{std::move(name), v.dump(), v.get<double>()};
}

// A field of `j` by JSON pointer; reading it as a number throws when it is none.
const Json& Number(const Json& j, const char* pointer) { return j.at(Json::json_pointer(pointer)); }

}  // namespace

StatusOr<std::vector<HeadlineValue>> ReadHeadline(const std::string& summary_json) {
  if (Status deep = CheckJsonNesting(summary_json); !deep.ok()) return deep;
  try {
    const Json j = Json::parse(summary_json);
    std::vector<HeadlineValue> out;
    for (const auto& [column, pointer] : std::initializer_list<std::pair<const char*, const char*>>{
             {"flows_completed", "/flows_completed"},
             {"flows_total", "/flows_total"},
             {"fct_p50_ns", "/fct_ns/p50"},
             {"fct_p99_ns", "/fct_ns/p99"},
             {"slowdown_p50", "/slowdown/p50"},
             {"slowdown_p99", "/slowdown/p99"},
             {"simulated_time_ns", "/simulated_time_ns"}}) {
      // A percentile of no completed flow is null: no figure, an empty cell.
      if (const Json& v = Number(j, pointer); !v.is_null()) out.push_back(Figure(column, v));
    }
    // Payload delivered over the makespan, all hosts together: bits per ns is Gb/s.
    const double simulated_ns = Number(j, "/simulated_time_ns").get<double>();
    const auto delivered = Number(j, "/bytes_delivered").get<uint64_t>();
    out.push_back(
        Figure("goodput_gbps",
               Json(simulated_ns > 0 ? 8.0 * static_cast<double>(delivered) / simulated_ns : 0.0)));
    out.push_back(Figure("bytes_delivered", Json(delivered)));
    out.push_back(Figure("drops", Number(j, "/drops/packets")));
    // switch_queues lists every queue where anything happened, so its sums are the fabric's.
    uint64_t ecn_marks = 0;
    uint64_t pause_frames = 0;
    uint64_t max_queue_bytes = 0;
    for (const Json& q : j.at("switch_queues")) {
      ecn_marks += q.at("ecn_marks").get<uint64_t>();
      pause_frames += q.at("pause_frames_sent").get<uint64_t>();
      max_queue_bytes = std::max(max_queue_bytes, q.at("max_depth_bytes").get<uint64_t>());
    }
    out.push_back(Figure("ecn_marks", Json(ecn_marks)));
    out.push_back(Figure("pause_frames", Json(pause_frames)));
    out.push_back(Figure("cnps", Number(j, "/cnps/sent")));
    out.push_back(Figure("retransmitted_packets", Number(j, "/retransmissions/packets")));
    out.push_back(Figure("max_queue_bytes", Json(max_queue_bytes)));
    for (const Json& job : j.at("jobs")) {
      if (!job.contains("iterations")) continue;
      const std::string prefix = "job." + job.at("name").get<std::string>() + ".iteration_";
      // Null when no iteration completed: an empty cell, as for FCT.
      for (const char* q : {"p50", "p99"}) {
        const Json& v = Number(job, (std::string("/iterations/time_ns/") + q).c_str());
        if (!v.is_null()) out.push_back(Figure(prefix + q + "_ns", v));
      }
    }
    return out;
  } catch (const Json::exception& e) {
    return Status::Error(std::string("not a summary.json this version writes: ") + e.what());
  }
}

}  // namespace fe::control
