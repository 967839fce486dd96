#include "control/report/links_csv.h"

#include <cinttypes>
#include <cstdio>

#include "traffic/csv_field.h"

namespace fe::control {

std::string LinksCsv(const Emulation& e, Time simulated_time) {
  std::string out =
      "node,port,kind,peer,peer_port,rate_bps,tx_packets,tx_wire_bytes,busy_ns,utilization\n";
  const double run_ps = static_cast<double>(simulated_time.ps());
  char line[192];
  for (topo::NodeId n = 0; n < e.graph.nodes().size(); ++n) {
    const topo::Node& node = e.graph.node(n);
    for (uint16_t p = 0; p < node.links.size(); ++p) {
      const topo::PortRef peer = e.graph.Peer({n, p});
      const dp::PortCounters c = e.fabric->port(n, p).counters();
      out += CsvField(node.name) + ',' + std::to_string(p) + ',' +
             (node.kind == topo::NodeKind::kHost ? "host" : "switch") + ',' +
             CsvField(e.graph.node(peer.node).name) + ',';
      std::snprintf(line, sizeof(line), "%u,%" PRId64 ",%" PRIu64 ",%" PRIu64 ",%.3f,%.6f\n",
                    static_cast<unsigned>(peer.port), e.graph.link(node.links[p]).rate.bps(),
                    c.tx_packets, c.tx_wire_bytes, c.busy_time.fractional_ns(),
                    run_ps > 0 ? static_cast<double>(c.busy_time.ps()) / run_ps : 0.0);
      out += line;
    }
  }
  return out;
}

}  // namespace fe::control
