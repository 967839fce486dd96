// Where the fabric was paused and where it was busy: switch by port heatmaps of PFC paused time
// (summary.json) and of link utilisation (links.csv).
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "control/report/html/csv_reader.h"
#include "control/report/html/report_sections.h"
#include "control/report/html/section_common.h"
#include "control/report/html/svg_heatmap.h"
#include "control/report/html/svg_text.h"

namespace fe::control::html {
namespace {

constexpr size_t kTopRows = 10;
constexpr double kMaxPorts = 65536;  // port numbers are 16-bit
constexpr double kPriorities = 8;

// A whole number in [0, limit): a value that can index the grid.
bool IsIndex(double v, double limit) { return v >= 0 && v < limit && v == std::floor(v); }

struct LinkRow {
  std::string node;
  int port = 0;
  bool is_switch = false;
  std::string peer;
  std::string peer_port;
  std::string tx_wire_bytes;
  double utilization = 0;
};

struct NaturalOrder {
  bool operator()(const std::string& a, const std::string& b) const { return NaturalLess(a, b); }
};

// Switch name -> its number of ports.
using SwitchPorts = std::map<std::string, int, NaturalOrder>;

StatusOr<std::vector<LinkRow>> ReadLinks(const ReportInput& in) {
  std::vector<LinkRow> links;
  StatusOr<CsvReader> csv = CsvReader::Open(in.Path("links.csv"));
  if (!csv.ok()) return csv.status();
  std::map<std::string, size_t> col;
  for (const char* name :
       {"node", "port", "kind", "peer", "peer_port", "tx_wire_bytes", "utilization"}) {
    StatusOr<size_t> c = csv->Column(name);
    if (!c.ok()) return c.status();
    col[name] = *c;
  }
  while (true) {
    StatusOr<bool> next = csv->Next();
    if (!next.ok()) return next.status();
    if (!*next) break;
    StatusOr<double> port = csv->Number(col["port"]);
    if (!port.ok()) return port.status();
    StatusOr<double> util = csv->Number(col["utilization"]);
    if (!util.ok()) return util.status();
    const std::string& kind = csv->Text(col["kind"]);
    if (kind != "switch" && kind != "host")
      return csv->Error("kind '" + kind + "' is neither host nor switch");
    if (!IsIndex(*port, kMaxPorts)) return csv->Error("port is not a port number");
    links.push_back({csv->Text(col["node"]), static_cast<int>(*port), kind == "switch",
                     csv->Text(col["peer"]), csv->Text(col["peer_port"]),
                     csv->Text(col["tx_wire_bytes"]), *util});
  }
  return links;
}

SwitchPorts PortsOf(const std::vector<LinkRow>& links) {
  SwitchPorts ports;
  for (const LinkRow& l : links) {
    if (l.is_switch) ports[l.node] = std::max(ports[l.node], l.port + 1);
  }
  return ports;
}

svg::Heatmap GridOf(const SwitchPorts& ports) {
  svg::Heatmap h;
  h.row_title = "switch";
  h.column_title = "port";
  int columns = 0;
  for (const auto& [name, n] : ports) {
    h.rows.push_back(name);
    columns = std::max(columns, n);
  }
  for (int p = 0; p < columns; ++p) h.columns.push_back(std::to_string(p));
  h.cells.assign(h.rows.size() * h.columns.size(), std::nullopt);
  // A port the switch has holds 0 until a value says otherwise; one it lacks stays blank.
  size_t r = 0;
  for (const auto& [name, n] : ports) {
    for (int p = 0; p < n; ++p) h.cells[r * h.columns.size() + p] = 0.0;
    ++r;
  }
  return h;
}

// summary.json's switch_queues entries whose `field` is positive, by priority, and the grid of
// switch ports to draw them on: links.csv's every port, else those switch_queues names.
struct QueueMaps {
  std::map<int, std::vector<const Json*>> by_priority;
  SwitchPorts ports;
};

StatusOr<QueueMaps> QueueMapsOf(const ReportInput& in, const char* field) {
  QueueMaps maps;
  const Json& queues = Field(in.summary, "switch_queues");
  if (queues.is_array()) {
    for (const Json& q : queues) {
      const Json& sw = Field(q, "switch");
      const double port = NumberOr(Field(q, "port"), -1);
      const double queue = NumberOr(Field(q, "queue"), -1);
      if (!sw.is_string() || !IsIndex(port, kMaxPorts) || !IsIndex(queue, kPriorities)) {
        return Status::Error(in.Path("summary.json") +
                             ": a switch_queues entry without a switch, a port (0..65535) and a "
                             "queue (0..7)");
      }
      int& n = maps.ports[sw.get<std::string>()];
      n = std::max(n, static_cast<int>(port) + 1);
      if (NumberOr(Field(q, field), 0) > 0) {
        maps.by_priority[static_cast<int>(queue)].push_back(&q);
      }
    }
  }
  if (in.Has("links.csv")) {
    StatusOr<std::vector<LinkRow>> links = ReadLinks(in);
    if (!links.ok()) return links.status();
    maps.ports = PortsOf(*links);
  }
  return maps;
}

// Per priority: the heatmap of `field` over the switch ports, then a table of the kTopRows
// entries with the most of it, with `columns` of each (the first two are switch and port).
std::string QueueHeatmaps(const QueueMaps& maps, const std::string& field, const std::string& title,
                          const std::string& value_title, const std::vector<std::string>& columns) {
  std::string body;
  for (const auto& [priority, entries] : maps.by_priority) {
    svg::Heatmap h = GridOf(maps.ports);
    h.title = title + ", priority " + std::to_string(priority);
    h.value_title = value_title;
    h.value_scale = {.min = 0.0};
    for (const Json* q : entries) {
      const std::string sw = Field(*q, "switch").get<std::string>();
      const auto row = std::find(h.rows.begin(), h.rows.end(), sw);
      const size_t port = static_cast<size_t>(NumberOr(Field(*q, "port"), 0));
      if (row == h.rows.end() || port >= h.columns.size()) continue;
      h.cells[static_cast<size_t>(row - h.rows.begin()) * h.columns.size() + port] =
          NumberOr(Field(*q, field), 0);
    }
    body += Figure(svg::RenderHeatmap(h));
    std::vector<const Json*> sorted = entries;
    std::stable_sort(sorted.begin(), sorted.end(), [&](const Json* a, const Json* b) {
      return NumberOr(Field(*a, field), 0) > NumberOr(Field(*b, field), 0);
    });
    std::vector<std::vector<std::string>> table;
    for (size_t i = 0; i < std::min(sorted.size(), kTopRows); ++i) {
      const Json& q = *sorted[i];
      std::vector<std::string> row = {Field(q, "switch").get<std::string>(),
                                      NumberText(Field(q, "port"))};
      for (size_t c = 2; c < columns.size(); ++c) row.push_back(NumberText(Field(q, columns[c])));
      table.push_back(std::move(row));
    }
    body += Table(columns, table);
  }
  return body;
}

}  // namespace

StatusOr<Section> PfcSection(const ReportInput& in) {
  Section section{"pfc", "PFC paused time", ""};
  std::string& body = section.body;
  StatusOr<QueueMaps> maps = QueueMapsOf(in, "paused_time_ns");
  if (!maps.ok()) return maps.status();
  const Json& hosts = Field(in.summary, "paused_host_uplinks");
  const bool hosts_paused = hosts.is_array() && !hosts.empty();
  if (maps->by_priority.empty() && !hosts_paused) {
    body += Paragraph(
        "No egress port was paused in this run (summary.json: every "
        "`switch_queues[].paused_time_ns` is 0 and `paused_host_uplinks` is empty). "
        "PFC pauses a port when the switch it sends to fills past its XOFF "
        "threshold; it is set in the scenario's `switch.pfc`.");
    return section;
  }
  body += Paragraph(
      "How long each switch egress port could not send, paused by PFC frames "
      "from the switch or NIC it feeds (summary.json `switch_queues[].paused_time_ns`"
      "), one map per priority that was paused. Blank: no such port.");
  body += QueueHeatmaps(
      *maps, "paused_time_ns", "Paused time", "paused (ns)",
      {"switch", "port", "paused_time_ns", "pause_frames_received", "pause_frames_sent"});
  if (hosts_paused) {
    std::vector<std::vector<std::string>> table;
    for (const Json& h : hosts) {
      table.push_back({NumberText(Field(h, "host")), NumberText(Field(h, "queue")),
                       NumberText(Field(h, "paused_time_ns")),
                       NumberText(Field(h, "pause_frames_received"))});
    }
    body +=
        Paragraph("Host uplinks paused by their edge switch (summary.json `paused_host_uplinks`):");
    body += Table({"host", "priority", "paused_time_ns", "pause_frames_received"}, table);
  }
  return section;
}

StatusOr<Section> EcnSection(const ReportInput& in) {
  Section section{"ecn", "ECN marks", ""};
  StatusOr<QueueMaps> maps = QueueMapsOf(in, "ecn_marks");
  if (!maps.ok()) return maps.status();
  if (maps->by_priority.empty()) {
    section.body = Paragraph(
        "No switch queue marked a packet in this run (summary.json: every "
        "`switch_queues[].ecn_marks` is 0). A queue marks CE by its WRED profile, "
        "`switch.queue[].wred`, once its depth passes `kmin_bytes`.");
    return section;
  }
  section.body = Paragraph(
      "How many packets each switch egress queue marked CE (summary.json "
      "`switch_queues[].ecn_marks`), one map per priority that marked. Marks reach the "
      "receivers, whose CNPs slow the senders (DCQCN). Blank: no such port.");
  section.body +=
      QueueHeatmaps(*maps, "ecn_marks", "ECN marks", "marked packets",
                    {"switch", "port", "ecn_marks", "max_depth_bytes", "mean_depth_bytes"});
  return section;
}

StatusOr<Section> LinksSection(const ReportInput& in) {
  Section section{"links", "Link utilisation", ""};
  std::string& body = section.body;
  if (!in.Has("links.csv")) {
    body += Absent(
        "No links.csv in this directory: the run that wrote it predates it. Runs of "
        "this version write links.csv, what each link direction carried; run the "
        "scenario again to see utilisation here.");
    return section;
  }
  StatusOr<std::vector<LinkRow>> links = ReadLinks(in);
  if (!links.ok()) return links.status();
  const SwitchPorts ports = PortsOf(*links);
  svg::Heatmap h = GridOf(ports);
  h.title = "Utilisation of each switch egress port";
  h.value_title = "busy share of run";
  h.value_scale = {.min = 0.0, .max = 1.0};
  for (const LinkRow& l : *links) {
    if (!l.is_switch) continue;
    const size_t row = static_cast<size_t>(std::distance(ports.begin(), ports.find(l.node)));
    h.cells[row * h.columns.size() + static_cast<size_t>(l.port)] = l.utilization;
  }
  body += Paragraph(
      "The share of the run each link direction spent sending (links.csv "
      "`utilization`: time serialising frames, preamble and gap included, over "
      "the simulated time). A row is a switch, a column the port it sends from.");
  if (h.rows.empty()) {
    body += Absent("links.csv lists no switch port.");
  } else {
    body += Figure(svg::RenderHeatmap(h));
  }
  std::vector<const LinkRow*> busiest;
  for (const LinkRow& l : *links) busiest.push_back(&l);
  std::stable_sort(busiest.begin(), busiest.end(), [](const LinkRow* a, const LinkRow* b) {
    return a->utilization > b->utilization;
  });
  std::vector<std::vector<std::string>> table;
  for (size_t i = 0; i < std::min(busiest.size(), kTopRows); ++i) {
    const LinkRow& l = *busiest[i];
    table.push_back({l.node + " port " + std::to_string(l.port), l.peer + " port " + l.peer_port,
                     svg::ExactNumber(l.utilization), l.tx_wire_bytes});
  }
  body += Paragraph("The busiest link directions, hosts' included:");
  body += Table({"from", "to", "utilization", "tx_wire_bytes"}, table);
  return section;
}

}  // namespace fe::control::html
