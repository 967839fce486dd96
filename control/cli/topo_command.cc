#include "control/cli/topo_command.h"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "control/cli/cli_args.h"
#include "control/cli/topo_export.h"
#include "topology/build.h"
#include "topology/link_class.h"
#include "topology/routes.h"

namespace fe::control {
namespace {

std::string Fixed(double v, int decimals) {
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%.*f", decimals, v);
  return buf;
}

std::string Gbps(double bps) { return Fixed(bps * 1e-9, bps * 1e-9 >= 100 ? 0 : 1) + " Gb/s"; }

// Runs `write` on stdout ("-") or on the file.
Status WriteTo(const std::string& file, std::ostream& out,
               const std::function<void(std::ostream&)>& write) {
  if (file == "-") {
    write(out);
    return Status::Ok();
  }
  std::ofstream f(file, std::ios::binary);
  if (!f) return Status::Error("cannot create " + file + ": " + std::strerror(errno));
  write(f);
  f.close();
  if (!f) return Status::Error("cannot write " + file);
  return Status::Ok();
}

}  // namespace

StatusOr<uint32_t> FindEndpoint(const topo::Graph& graph, const std::string& name) {
  uint32_t index = 0;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), index);
  if (ec == std::errc() && end == name.data() + name.size()) {
    if (index < graph.num_hosts()) return index;
    return Status::Error("--pair: endpoint " + name + " is not a host index: the fabric has " +
                         std::to_string(graph.num_hosts()) + " hosts, 0.." +
                         std::to_string(graph.num_hosts() - 1));
  }
  const std::optional<topo::NodeId> id = graph.FindNode(name);
  if (!id || graph.HostIndex(*id) < 0) {
    return Status::Error("--pair: no host is named '" + name + "'");
  }
  return static_cast<uint32_t>(graph.HostIndex(*id));
}

StatusOr<TopoReport> DescribeTopology(
    const topo::Graph& graph, const std::optional<std::pair<std::string, std::string>>& pair) {
  TopoReport report;
  report.metrics = topo::ComputeMetrics(graph);
  if (graph.num_hosts() < 2) return report;
  PathDiversity p;
  p.dst_host = static_cast<uint32_t>(graph.num_hosts() - 1);
  if (pair) {
    StatusOr<uint32_t> a = FindEndpoint(graph, pair->first);
    if (!a.ok()) return a.status();
    StatusOr<uint32_t> b = FindEndpoint(graph, pair->second);
    if (!b.ok()) return b.status();
    p.src_host = *a;
    p.dst_host = *b;
  }
  const topo::RouteTable routes = topo::RouteTable::Build(graph);
  p.paths = topo::CountShortestPaths(graph, routes, p.src_host, p.dst_host);
  p.links = topo::ShortestPathLinks(graph, routes, p.src_host, p.dst_host);
  report.paths = p;
  return report;
}

std::string TopoText(const std::string& scenario_name, const topo::Graph& graph,
                     const TopoReport& report) {
  const topo::TopologyMetrics& m = report.metrics;
  std::ostringstream o;
  o << "fabric " << scenario_name << "\n";
  o << "  nodes             " << m.hosts << " hosts (endpoints), " << m.switches << " switches, "
    << m.links << " links\n";
  o << "    role              tier    nodes  ports/node\n";
  for (const topo::RoleCount& r : m.roles) {
    char line[160];
    const std::string ports = r.min_ports == r.max_ports
                                  ? std::to_string(r.min_ports)
                                  : std::to_string(r.min_ports) + "-" + std::to_string(r.max_ports);
    std::snprintf(line, sizeof(line), "    %-16s %5d %8llu  %s\n", r.role.c_str(), r.tier,
                  static_cast<unsigned long long>(r.nodes), ports.c_str());
    o << line;
  }
  o << "  bisection         " << Gbps(m.bisection_bps)
    << " (first half of the hosts to the second)\n";
  o << "  oversubscription ";
  if (m.tiers.empty()) o << " none (no switch tiers)\n";
  for (size_t i = 0; i < m.tiers.size(); ++i) {
    const topo::TierLoad& t = m.tiers[i];
    o << (i == 0 ? " " : "                    ") << "tier " << int{t.tier} << ": ";
    if (t.up_bps > 0) {
      o << Fixed(t.oversubscription(), 2) << ":1 (" << Gbps(t.down_bps) << " down, "
        << Gbps(t.up_bps) << " up)\n";
    } else {
      o << "top (" << Gbps(t.down_bps) << " down)\n";
    }
  }
  o << "  diameter          ";
  if (m.diameter_links == UINT32_MAX) {
    o << "infinite: some hosts cannot reach each other\n";
  } else {
    o << m.diameter_links << " links between hosts\n";
  }
  if (report.paths) {
    const PathDiversity& p = *report.paths;
    const std::string a = graph.node(graph.hosts()[p.src_host]).name;
    const std::string b = graph.node(graph.hosts()[p.dst_host]).name;
    o << "  paths             " << a << " -> " << b << ": ";
    if (p.paths == 0) {
      o << "unreachable\n";
    } else {
      o << p.paths << " shortest path" << (p.paths == 1 ? "" : "s") << " of " << p.links << " link"
        << (p.links == 1 ? "" : "s") << "\n";
    }
  }
  o << "  cables            ";
  for (size_t i = 0; i < m.media.size(); ++i) {
    const topo::MediaCount& c = m.media[i];
    o << (i == 0 ? "" : ", ") << topo::MediaName(c.media) << " " << c.cables;
    if (c.optics > 0) o << " (" << c.optics << " optics)";
  }
  o << "\n";
  o << "  optics power      " << Fixed(m.optics_power_w, 1)
    << " W (2 ends x pJ/bit x rate per link)\n";
  o << "  optical engines   " << m.optical_engines;
  if (m.optical_engines > 0) o << " (up to " << m.max_ports_per_engine << " ports each)";
  o << "\n";
  return o.str();
}

int RunTopo(const fabric_emu::Scenario& scenario, const TopoOptions& options, std::ostream& out,
            std::ostream& err) {
  StatusOr<topo::Graph> graph = topo::BuildTopology(scenario.topology(), options.scenario_dir);
  if (!graph.ok()) {
    err << "fabric-emu: topology." << graph.status().message() << "\n";
    return kExitBadInput;
  }
  StatusOr<TopoReport> report = DescribeTopology(*graph, options.pair);
  if (!report.ok()) {
    err << "fabric-emu: " << report.status().message() << "\n";
    return kExitBadInput;
  }
  if (options.dot_file != "-" && options.json_file != "-") {
    out << TopoText(scenario.name(), *graph, *report);
  }
  if (!options.dot_file.empty()) {
    const Status s =
        WriteTo(options.dot_file, out, [&](std::ostream& o) { WriteTopoDot(*graph, o); });
    if (!s.ok()) {
      err << "fabric-emu: " << s.message() << "\n";
      return kExitRuntimeFailure;
    }
  }
  if (!options.json_file.empty()) {
    const Status s = WriteTo(options.json_file, out, [&](std::ostream& o) {
      WriteTopoJson(scenario.name(), *graph, *report, o);
    });
    if (!s.ok()) {
      err << "fabric-emu: " << s.message() << "\n";
      return kExitRuntimeFailure;
    }
  }
  return kExitOk;
}

}  // namespace fe::control
