#include "control/cli/topo_export.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include <nlohmann/json.hpp>

#include "topology/link_class.h"

namespace fe::control {
namespace {

// A DOT identifier: any name, quoted, with quotes and backslashes escaped.
std::string DotId(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

const char* MediaColour(topo::Media media) {
  switch (media) {
    case topo::Media::kDac:
      return "gray40";
    case topo::Media::kAoc:
      return "darkorange";
    case topo::Media::kPluggable:
      return "royalblue";
    case topo::Media::kLpo:
      return "seagreen";
    case topo::Media::kCpo:
      return "purple";
  }
  return "black";
}

topo::Media MediaOf(const topo::Graph& graph, topo::LinkClassId link_class) {
  return link_class < graph.link_classes().size() ? graph.link_classes()[link_class].media
                                                  : topo::Media::kDac;
}

}  // namespace

void WriteTopoDot(const topo::Graph& graph, std::ostream& o) {
  o << "graph fabric {\n  rankdir=BT;\n  node [fontsize=10];\n";
  // Scale-up switches share tier 0 with the hosts but sit on a rank of their own, beside them.
  std::map<std::pair<int, bool>, std::vector<topo::NodeId>> ranks;
  for (topo::NodeId n = 0; n < graph.nodes().size(); ++n) {
    const topo::Node& node = graph.node(n);
    const bool is_switch = node.kind == topo::NodeKind::kSwitch;
    ranks[{node.tier, is_switch}].push_back(n);
  }
  for (const auto& [rank, ids] : ranks) {
    const bool is_switch = rank.second;
    o << "  { rank=same;";
    for (topo::NodeId id : ids) {
      o << " " << DotId(graph.node(id).name) << (is_switch ? " [shape=box]" : " [shape=ellipse]")
        << ";";
    }
    o << " }\n";
  }
  // Parallel links once, with their count.
  std::map<std::tuple<topo::NodeId, topo::NodeId, topo::LinkClassId>, int> edges;
  for (const topo::Link& l : graph.links()) {
    ++edges[{std::min(l.a.node, l.b.node), std::max(l.a.node, l.b.node), l.link_class}];
  }
  for (const auto& [key, count] : edges) {
    const auto& [a, b, cls] = key;
    o << "  " << DotId(graph.node(a).name) << " -- " << DotId(graph.node(b).name)
      << " [color=" << MediaColour(MediaOf(graph, cls));
    if (count > 1) o << ", label=\"x" << count << "\"";
    o << "];\n";
  }
  o << "}\n";
}

namespace {

// The figures the text gives (topo_command.cc), as the document's "summary".
nlohmann::json SummaryJson(const TopoReport& report) {
  using nlohmann::json;
  const topo::TopologyMetrics& m = report.metrics;
  json summary = {
      {"hosts", m.hosts},
      {"switches", m.switches},
      {"links", m.links},
      {"bisection_gbps", m.bisection_bps * 1e-9},
      {"diameter_links", m.diameter_links == UINT32_MAX ? json(nullptr) : json(m.diameter_links)},
      {"optics_power_w", m.optics_power_w},
      {"optical_engines", m.optical_engines}};
  json roles = json::array();
  for (const topo::RoleCount& r : m.roles) {
    roles.push_back({{"role", r.role},
                     {"tier", r.tier},
                     {"nodes", r.nodes},
                     {"min_ports", r.min_ports},
                     {"max_ports", r.max_ports}});
  }
  summary["roles"] = roles;
  json tiers = json::array();
  for (const topo::TierLoad& t : m.tiers) {
    tiers.push_back(
        {{"tier", t.tier},
         {"switches", t.switches},
         {"down_gbps", t.down_bps * 1e-9},
         {"up_gbps", t.up_bps * 1e-9},
         {"oversubscription", t.up_bps > 0 ? json(t.oversubscription()) : json(nullptr)}});
  }
  summary["tiers"] = tiers;
  json media = json::array();
  for (const topo::MediaCount& c : m.media) {
    media.push_back({{"media", topo::MediaName(c.media)},
                     {"cables", c.cables},
                     {"optics", c.optics},
                     {"power_w", c.power_w}});
  }
  summary["media"] = media;
  if (report.paths) {
    const PathDiversity& p = *report.paths;
    summary["paths"] = {{"src_host", p.src_host},
                        {"dst_host", p.dst_host},
                        {"shortest_paths", p.paths},
                        {"links", p.paths > 0 ? json(p.links) : json(nullptr)}};
  }
  return summary;
}

nlohmann::json LinkClassesJson(const topo::Graph& graph) {
  using nlohmann::json;
  json classes = json::array();
  for (const topo::LinkClass& c : graph.link_classes()) {
    classes.push_back({{"name", c.name},
                       {"rate_gbps", c.rate.gbps()},
                       {"delay_ns", static_cast<double>(c.delay.ps()) * 1e-3},
                       {"media", topo::MediaName(c.media)},
                       {"pj_per_bit", c.pj_per_bit},
                       {"ports_per_engine", c.ports_per_engine},
                       {"bit_error_rate", c.bit_error_rate}});
  }
  return classes;
}

}  // namespace

void WriteTopoJson(const std::string& scenario_name, const topo::Graph& graph,
                   const TopoReport& report, std::ostream& o) {
  using nlohmann::json;
  // Nodes and links one per line, written as they are made: a 100,000-endpoint fabric's
  // document would take most of a GB as one json value.
  o << "{\"scenario\": " << json(scenario_name).dump()
    << ",\n\"summary\": " << SummaryJson(report).dump()
    << ",\n\"link_classes\": " << LinkClassesJson(graph).dump() << ",\n\"nodes\": [";
  for (topo::NodeId n = 0; n < graph.nodes().size(); ++n) {
    const topo::Node& node = graph.node(n);
    json j = {
        {"name", node.name},     {"kind", node.kind == topo::NodeKind::kHost ? "host" : "switch"},
        {"role", node.role},     {"index", node.index},
        {"tier", node.tier},     {"pod", node.pod},
        {"domain", node.domain}, {"ports", node.links.size()}};
    if (graph.HostIndex(n) >= 0) j["host_index"] = graph.HostIndex(n);
    o << (n == 0 ? "\n" : ",\n") << j.dump();
  }
  o << "\n],\n\"links\": [";
  for (topo::LinkId id = 0; id < graph.links().size(); ++id) {
    const topo::Link& l = graph.link(id);
    const json j = {{"a", graph.node(l.a.node).name},
                    {"a_port", l.a.port},
                    {"b", graph.node(l.b.node).name},
                    {"b_port", l.b.port},
                    {"link_class", l.link_class},
                    {"rate_gbps", l.rate.gbps()},
                    {"delay_ns", static_cast<double>(l.delay.ps()) * 1e-3}};
    o << (id == 0 ? "\n" : ",\n") << j.dump();
  }
  o << "\n]}\n";
}

}  // namespace fe::control
