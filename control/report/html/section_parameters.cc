// The report's first section: what ran (summary.json's run fields, the scenario's settings from
// scenario.textproto) and its headline results, every figure as summary.json has it.
#include <google/protobuf/descriptor.h>
#include <google/protobuf/text_format.h>

#include "control/report/html/report_sections.h"
#include "control/report/html/svg_text.h"
#include "proto/scenario.pb.h"

namespace fe::control::html {
namespace {

namespace pb = google::protobuf;

constexpr size_t kMaxSettings = 80;
constexpr int kMaxRepeatedShown = 4;
constexpr int kMaxListed = 16;

using Rows = std::vector<std::vector<std::string>>;

void AddFields(const Json& object, const std::vector<std::string>& keys, const std::string& prefix,
               Rows* rows) {
  for (const std::string& k : keys) {
    const Json& v = Field(object, k);
    if (v.is_object() || v.is_array()) continue;
    if (!object.contains(k)) continue;
    rows->push_back({prefix + k, NumberText(v)});
  }
}

// Every field the scenario sets, as path = value, depth first in field order; repeated fields
// past the first few are counted rather than listed (the whole text follows the table).
void Flatten(const pb::Message& m, const std::string& path, Rows* rows) {
  const pb::Reflection* r = m.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r->ListFields(m, &fields);
  for (const pb::FieldDescriptor* f : fields) {
    if (rows->size() >= kMaxSettings) return;
    const std::string name = path.empty() ? f->name() : path + "." + f->name();
    if (f->is_repeated() && f->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      // A list of numbers or names reads best on one line, as the text format writes it.
      const int n = r->FieldSize(m, f);
      std::string values;
      for (int i = 0; i < std::min(n, kMaxListed); ++i) {
        std::string value;
        pb::TextFormat::PrintFieldValueToString(m, f, i, &value);
        values += (i == 0 ? "" : ", ") + value;
      }
      if (n > kMaxListed) values += ", ... (" + std::to_string(n) + " in all)";
      rows->push_back({name, "[" + values + "]"});
    } else if (f->is_repeated()) {
      const int n = r->FieldSize(m, f);
      for (int i = 0; i < std::min(n, kMaxRepeatedShown); ++i) {
        Flatten(r->GetRepeatedMessage(m, f, i), name + "[" + std::to_string(i) + "]", rows);
      }
      if (n > kMaxRepeatedShown) {
        rows->push_back({name, std::to_string(n) + " entries, " +
                                   std::to_string(n - kMaxRepeatedShown) +
                                   " more in the scenario below"});
      }
    } else if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      const size_t before = rows->size();
      Flatten(r->GetMessage(m, f), name, rows);
      if (rows->size() == before) rows->push_back({name, "{ } (all defaults)"});
    } else {
      std::string value;
      pb::TextFormat::PrintFieldValueToString(m, f, -1, &value);
      rows->push_back({name, value});
    }
  }
}

}  // namespace

StatusOr<Section> ParametersSection(const ReportInput& in) {
  const Json& s = in.summary;
  std::string body;
  Rows run;
  AddFields(s,
            {"scenario", "seed", "mode", "hosts", "switches", "links", "simulated_time_ns",
             "events", "stopped_early", "stop_reason", "wall_time_s"},
            "", &run);
  body += "<h3>Run</h3>\n" + Table({"summary.json", "value"}, run);

  Rows results;
  AddFields(
      s, {"flows_total", "flows_completed", "flows_delivered_unacknowledged", "flows_undelivered"},
      "", &results);
  AddFields(Field(s, "fct_ns"), {"p50", "p95", "p99", "max"}, "fct_ns.", &results);
  AddFields(Field(s, "slowdown"), {"count", "p50", "p95", "p99", "max"}, "slowdown.", &results);
  AddFields(s,
            {"bytes_sent", "bytes_delivered", "packets_sent", "packets_delivered",
             "reordered_packets", "acks_sent"},
            "", &results);
  AddFields(Field(s, "retransmissions"),
            {"packets", "payload_bytes", "timeouts", "retry_exceeded", "naks", "discarded_packets"},
            "retransmissions.", &results);
  AddFields(Field(s, "cnps"), {"sent", "received"}, "cnps.", &results);
  AddFields(Field(s, "drops"), {"packets"}, "drops.", &results);
  const Json& by_reason = Field(Field(s, "drops"), "by_reason");
  if (by_reason.is_object()) {
    for (const auto& [reason, n] : by_reason.items()) {
      if (NumberOr(n, 0) != 0) results.push_back({"drops.by_reason." + reason, NumberText(n)});
    }
  }
  AddFields(s, {"packet_hops", "wire_bytes", "mbufs_in_use_at_end"}, "", &results);
  body += "<h3>Results</h3>\n" + Table({"summary.json", "value"}, results);

  body += "<h3>Settings</h3>\n";
  if (!in.scenario_text) {
    body += Absent(
        "No `scenario.textproto` in this directory: the run that wrote it predates it. A run "
        "of this version writes the scenario as run (after `--seed` and other options) beside "
        "summary.json; run it again to see its settings here.");
  } else {
    fabric_emu::Scenario scenario;
    pb::TextFormat::Parser parser;
    if (!parser.ParseFromString(*in.scenario_text, &scenario)) {
      return Status::Error(in.Path("scenario.textproto") +
                           ": not a scenario in Protobuf text format");
    }
    Rows settings;
    Flatten(scenario, "", &settings);
    body += Paragraph(
        "Every field the scenario sets; the others keep the defaults of "
        "docs/scenario.md.");
    body += Table({"field", "value"}, settings, false);
    body += "<details><summary>The scenario as run (scenario.textproto)</summary><pre>" +
            svg::Escape(*in.scenario_text) + "</pre></details>\n";
  }
  return Section{"parameters", "Run and parameters", body};
}

}  // namespace fe::control::html
