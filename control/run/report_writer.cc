#include "control/run/report_writer.h"

#include <charconv>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "control/report/credit_json.h"
#include "control/report/ideal_fct.h"
#include "control/report/jobs_json.h"
#include "control/report/json_text.h"
#include "control/report/kv_report.h"
#include "control/report/load_balancing_report.h"
#include "control/report/message_counts.h"
#include "control/report/summary_jobs.h"
#include "control/report/switch_queues_json.h"
#include "control/report/workload_lines.h"
#include "dataplane/drop_reason.h"
#include "traffic/csv_field.h"
#include "traffic/job_metrics.h"
#include "traffic/kv_metrics.h"
#include "traffic/message_outcomes.h"

namespace fe::control {

namespace {

using Json = nlohmann::ordered_json;

// Appends v as printf's "%.<precision>f" writes it: std::to_chars with a precision is specified
// to give printf's digits.
void AppendFixed(std::string& out, double v, int precision) {
  char buf[400];  // the longest double in fixed notation, 309 digits, and its decimals
  const auto [end, ec] =
      std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::fixed, precision);
  if (ec == std::errc()) {
    out.append(buf, end);
  } else {
    char fallback[512];
    std::snprintf(fallback, sizeof(fallback), "%.*f", precision, v);
    out += fallback;
  }
}

void AppendUnsigned(std::string& out, uint64_t n) {
  char buf[24];
  out.append(buf, std::to_chars(buf, buf + sizeof(buf), n).ptr);
}

// A percentile of no flow is none: null, not 0, which would read as an instant completion.
Json Percentile(bool any, double v) { return any ? Json(v) : Json(nullptr); }

Json SlowdownJson(const SlowdownStats& s) {
  const bool any = s.count > 0;
  return Json{{"count", s.count},
              {"p50", Percentile(any, s.p50)},
              {"p95", Percentile(any, s.p95)},
              {"p99", Percentile(any, s.p99)},
              {"max", Percentile(any, s.max)}};
}

// Each change of the fabric as it happened, with what it cost; reroute_ns is null when the run
// ended before routes took the change in.
Json FailuresJson(const FailureSummary& summary) {
  Json events = Json::array();
  for (const FailureEventSummary& ev : summary.events) {
    events.push_back(Json{
        {"failure", ev.failure},
        {"at_ns", ev.at.fractional_ns()},
        {"kind", ev.kind},
        {"target", ev.target},
        {"frames_lost", ev.frames_lost},
        {"flows_affected", ev.flows_affected},
        {"reroute_ns",
         ev.reroute_at == Time::Infinite() ? Json(nullptr) : Json(ev.reroute_at.fractional_ns())},
        {"unreachable_flows", ev.unreachable_flows}});
  }
  return Json{{"events", events},
              {"unreachable_flows", summary.unreachable_flow_ids.size()},
              {"unreachable_flow_ids", summary.unreachable_flow_ids}};
}

// Messages a sender gave up, by why: a failure that left no live path (failures.
// unreachable_flow_ids), or retransmissions past nic.transport.retry_count. Empty if none.
std::string GivenUpLine(const dp::MessageTable& messages) {
  uint64_t no_path = 0;
  uint64_t retries = 0;
  for (uint32_t id = 0; id < messages.size(); ++id) {
    const dp::SenderState& m = messages.sender[id];
    if (!m.unreachable) continue;
    ++(m.retries_exhausted ? retries : no_path);
  }
  if (no_path + retries == 0) return "";
  char buf[256];
  std::snprintf(buf, sizeof(buf),
                "  given up  %llu messages: %llu with no live path after a failure, %llu after "
                "nic.transport.retry_count timeouts\n",
                static_cast<unsigned long long>(no_path + retries),
                static_cast<unsigned long long>(no_path), static_cast<unsigned long long>(retries));
  return buf;
}

}  // namespace

FlowMetrics CollectFlowMetrics(const Emulation& e, uint32_t mtu_payload_bytes) {
  FlowMetrics metrics;
  const dp::MessageTable& messages = e.fabric->messages();
  std::vector<PathHop> path;
  for (uint32_t id = 0; id < messages.size(); ++id) {
    const dp::MessageSpec& spec = messages.spec(id);
    const dp::SenderState& sent = messages.sender[id];
    const dp::ReceiverState& received = messages.receiver[id];
    // The path the message's packets take, each link at its own rate and delay.
    PathHopsOf(e.graph, e.routes, spec.src_host, spec.dst_host, id, &path);
    FlowRecord r;
    r.id = id;
    r.src_host = spec.src_host;
    r.dst_host = spec.dst_host;
    r.size_bytes = spec.size_bytes;
    // FCT runs from the actual start: a message that waited for others started after spec.start.
    r.start = sent.started() ? sent.started_at : spec.start;
    // Complete once its sender has the last ACK (the one definition every output counts by); the
    // FCT runs to the delivery of its last byte, which that ACK acknowledges.
    r.completed = messages.completed(id);
    if (r.completed) r.finish = received.delivered_at;
    r.ideal_fct = StandaloneFct(spec.size_bytes, mtu_payload_bytes, path);
    r.cnps_received = sent.cnps_received;
    r.retransmitted_packets = sent.retransmitted_packets;
    metrics.Add(r);
  }
  return metrics;
}

namespace {

// The NICs' packet and byte counters, in summary.json's order.
void AddNicCounters(const dp::FabricTotals& t, Json* out) {
  Json& j = *out;
  j["bytes_sent"] = t.nics.payload_bytes_sent;
  j["bytes_delivered"] = t.nics.payload_bytes_received;
  j["packets_sent"] = t.nics.data_packets_sent;
  // Accepted in order: go-back-N discards what comes past a gap, and duplicates (counted in
  // retransmissions.discarded_packets), so this is the packets the messages are made of.
  const uint64_t discarded = t.nics.out_of_sequence + t.nics.duplicates;
  j["packets_delivered"] = t.nics.data_packets_received - discarded;
  // Arrived with a PSN above the one their receiver expected next: go-back-N discards them (they
  // are in discarded_packets), the out-of-order mode keeps them.
  j["reordered_packets"] = t.nics.reordered_packets;
  j["acks_sent"] = t.nics.acks_sent;
  // Retransmitted packets and bytes are inside packets_sent and bytes_sent, which count each
  // transmission: packets_sent = packets_delivered + data drops + discarded_packets.
  j["retransmissions"] =
      Json{{"packets", t.nics.retransmitted_packets}, {"payload_bytes", t.nics.retransmitted_bytes},
           {"timeouts", t.nics.retransmit_timeouts},  {"fast", t.nics.fast_retransmits},
           {"retry_exceeded", t.nics.retry_exceeded}, {"naks", t.nics.naks_sent},
           {"discarded_packets", discarded}};
  j["cnps"] = Json{{"sent", t.nics.cnps_sent}, {"received", t.nics.cnps_received}};
}

}  // namespace

SplicedJson SummaryDocument(const fabric_emu::Scenario& scenario, uint64_t seed,
                            const SoftwareRunResult& run, const FlowSummary& flows) {
  const Emulation& e = *run.emulation;
  const dp::FabricTotals t = e.fabric->Totals();
  Json j;
  j["scenario"] = scenario.name();
  j["seed"] = seed;
  j["mode"] = "software";
  j["hosts"] = e.graph.num_hosts();
  j["switches"] = e.graph.num_switches();
  j["links"] = e.graph.links().size();
  j["flows_total"] = e.fabric->messages().size();
  j["flows_completed"] = flows.flows_completed;
  // The rest of flows_total at the end: delivered with the last ACK still on its way (or lost),
  // and not delivered (in flight, given up, or never started).
  const MessageCounts counts = CountMessages(e.fabric->messages());
  j["flows_delivered_unacknowledged"] = counts.delivered_unacknowledged;
  j["flows_undelivered"] = counts.undelivered;
  const bool any = flows.flows_completed > 0;
  j["fct_ns"] = Json{{"p50", Percentile(any, flows.fct.p50.fractional_ns())},
                     {"p95", Percentile(any, flows.fct.p95.fractional_ns())},
                     {"p99", Percentile(any, flows.fct.p99.fractional_ns())},
                     {"max", Percentile(any, flows.fct.max.fractional_ns())}};
  j["slowdown"] = SlowdownJson(flows.slowdown);
  Json buckets = Json::array();
  for (const SizeBucketSlowdown& b : flows.slowdown_by_size) {
    Json o = SlowdownJson(b.slowdown);
    o["lower_bytes"] = b.lower_bytes;
    o["upper_bytes"] = b.upper_bytes;  // 0: unbounded
    buckets.push_back(o);
  }
  j["slowdown_by_size"] = buckets;
  const std::vector<MessageOutcome> outcomes = OutcomesOf(e.fabric->messages());
  j["jobs"] = JobsJson(e.workload, outcomes);
  AddIterationTimes(JobTimings(e.workload, outcomes), &j["jobs"]);
  AddNicCounters(t, &j);
  j["packet_hops"] = t.packet_hops;
  j["wire_bytes"] = t.wire_bytes;
  Json by_reason = Json::object();
  for (size_t i = 0; i < t.drops.packets.size(); ++i) {
    by_reason[dp::DropReasonName(static_cast<dp::DropReason>(i))] = t.drops.packets[i];
  }
  j["drops"] = Json{{"packets", t.drops.total_packets()}, {"by_reason", by_reason}};
  if (e.failures != nullptr) j["failures"] = FailuresJson(e.failures->Summary());
  if (!e.workload.requests.empty()) {
    j["kv_cache"] = KvSummaryJson(e.workload, OutcomesOf(e.fabric->messages()));
  }
  j["switch_queues"] = kSplicedMember;
  j["paused_host_uplinks"] = PausedHostsJson(e);
  if (Json c = CreditLinksJson(*e.fabric, e.sched.Now()); !c.is_null()) j["credit_links"] = c;
  j["load_balancing"] = LoadBalancingJson(e);
  j["mbufs_in_use_at_end"] = e.fabric->mbufs_in_use();
  j["simulated_time_ns"] = run.simulated_time.fractional_ns();
  j["events"] = run.events;
  j["stopped_early"] = run.stopped_early;
  j["stop_reason"] = run.stop_reason.empty() ? Json(nullptr) : Json(run.stop_reason);
  if (!run.no_progress.empty()) j["no_progress"] = run.no_progress;
  if (!run.failure.empty()) j["failure"] = run.failure;
  j["wall_time_s"] = run.wall_time_s;
  const double wall = run.wall_time_s > 0 ? run.wall_time_s : 1e-9;
  j["packet_hops_per_wall_s"] = static_cast<double>(t.packet_hops) / wall;
  j["events_per_wall_s"] = static_cast<double>(run.events) / wall;
  return SplicedJson(j.dump(2), "switch_queues", SwitchQueuesText(e), "\n");
}

std::string SummaryJson(const fabric_emu::Scenario& scenario, uint64_t seed,
                        const SoftwareRunResult& run, const FlowSummary& flows) {
  return SummaryDocument(scenario, seed, run, flows).Joined();
}

std::string FlowsCsv(const FlowMetrics& metrics, const Workload& workload,
                     std::span<const MessageOutcome> outcomes) {
  // Made with std::to_chars, which formats as printf does, digit for digit, at a fraction of its
  // cost: a run of millions of flows writes this file after a Ctrl-C too.
  std::string out;
  out.reserve(workload.flows.size() * 96 + 160);
  // The FCT columns stay together, as readers of the first version expect; columns added since
  // come after them.
  out +=
      "id,src_host,dst_host,size_bytes,cnps_received,retransmitted_packets,start_ns,finish_ns,"
      "fct_ns,ideal_fct_ns,slowdown,job,started_ns,after\n";
  for (const FlowRecord& r : metrics.SortedRecords()) {
    for (const uint64_t n : {uint64_t{r.id}, uint64_t{r.src_host}, uint64_t{r.dst_host},
                             r.size_bytes, r.cnps_received, r.retransmitted_packets}) {
      AppendUnsigned(out, n);
      out += ',';
    }
    AppendFixed(out, workload.flows[r.id].start.fractional_ns(), 3);
    out += ',';
    // A flow the run stopped before its delivery has no finish, FCT or slowdown: empty fields,
    // which CSV readers take as missing values.
    if (r.completed) {
      AppendFixed(out, r.finish.fractional_ns(), 3);
      out += ',';
      AppendFixed(out, r.fct().fractional_ns(), 3);
      out += ',';
    } else {
      out += ",,";
    }
    AppendFixed(out, r.ideal_fct.fractional_ns(), 3);
    out += ',';
    if (r.completed) {
      AppendFixed(out, static_cast<double>(r.fct().ps()) / static_cast<double>(r.ideal_fct.ps()),
                  6);
    }
    out += ',';
    const uint32_t job = workload.job_of[r.id];
    out += CsvField(job < workload.jobs.size() ? workload.jobs[job].name : "");
    out += ',';
    // A flow that never started (it waited for one given up) has no start.
    if (outcomes[r.id].started != Time::Infinite())
      AppendFixed(out, outcomes[r.id].started.fractional_ns(), 3);
    out += ',';
    const char* separator = "";
    for (const uint32_t d : workload.dependencies(r.id)) {
      out += separator;
      AppendUnsigned(out, d);
      separator = " ";
    }
    out += '\n';
  }
  return out;
}

std::string HumanSummary(const fabric_emu::Scenario& scenario, uint64_t seed,
                         const SoftwareRunResult& run, const FlowSummary& flows) {
  const Emulation& e = *run.emulation;
  const dp::FabricTotals t = e.fabric->Totals();
  char buf[1024];
  std::snprintf(buf, sizeof(buf),
                "scenario %s (seed %llu): %zu hosts, %zu switches\n"
                "  messages  %llu of %zu completed, %llu payload bytes delivered, %llu drops\n",
                scenario.name().c_str(), static_cast<unsigned long long>(seed), e.graph.num_hosts(),
                e.graph.num_switches(), static_cast<unsigned long long>(flows.flows_completed),
                e.fabric->messages().size(),
                static_cast<unsigned long long>(t.nics.payload_bytes_received),
                static_cast<unsigned long long>(t.drops.total_packets()));
  std::string s = buf;
  s += GivenUpLine(e.fabric->messages());
  if (flows.flows_completed > 0) {
    std::snprintf(
        buf, sizeof(buf),
        "  FCT       p50 %.3f us, p99 %.3f us, max %.3f us; slowdown p50 %.3f, p99 %.3f\n",
        flows.fct.p50.fractional_ns() / 1000, flows.fct.p99.fractional_ns() / 1000,
        flows.fct.max.fractional_ns() / 1000, flows.slowdown.p50, flows.slowdown.p99);
    s += buf;
  } else {
    s += "  FCT       none: no message completed\n";
  }
  std::snprintf(
      buf, sizeof(buf),
      "  simulated %.3f us in %.3f s wall: %llu packet-hops, %.2f M packet-hops/s\n"
      "  start-up  %.1f ms of wall time from the program's start to the first event\n",
      run.simulated_time.fractional_ns() / 1000, run.wall_time_s,
      static_cast<unsigned long long>(t.packet_hops),
      static_cast<double>(t.packet_hops) / (run.wall_time_s > 0 ? run.wall_time_s : 1e-9) * 1e-6,
      run.startup_wall_s * 1e3);
  s += buf;
  // A person at a terminal wants the figures of the workload they ran, not only of its messages.
  const std::vector<MessageOutcome> outcomes = OutcomesOf(e.fabric->messages());
  for (const JobTiming& j : JobTimings(e.workload, outcomes)) {
    s += JobLine(e.workload.jobs[j.job].name, j);
  }
  for (const KvJobSummary& k : SummarizeKv(KvRequestRecords(e.workload, outcomes))) {
    s += KvLine(e.workload.jobs[k.job].name, k);
  }
  if (!run.stop_reason.empty()) {
    const MessageCounts counts = CountMessages(e.fabric->messages());
    std::snprintf(buf, sizeof(buf),
                  "  stopped   by %s: %llu messages delivered but not acknowledged, %llu not "
                  "delivered, %u packets in the fabric\n",
                  run.stop_reason.c_str(),
                  static_cast<unsigned long long>(counts.delivered_unacknowledged),
                  static_cast<unsigned long long>(counts.undelivered), e.fabric->mbufs_in_use());
    s += buf;
  }
  return s;
}

}  // namespace fe::control
