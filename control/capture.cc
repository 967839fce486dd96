#include "control/capture.h"

#include <optional>
#include <vector>

#include "control/switch_ref.h"

namespace fe::control {

namespace {

struct SelectedPort {
  dp::EgressPort* port;
  std::string name;
};

StatusOr<std::vector<SelectedPort>> Resolve(const fabric_emu::Capture& c, Emulation* e) {
  std::vector<SelectedPort> out;
  for (int i = 0; i < c.port_size(); ++i) {
    const fabric_emu::PortSelector& s = c.port(i);
    const std::string field = "capture.port[" + std::to_string(i) + "]";
    if (s.has_host()) {
      if (s.host() < 0 || static_cast<size_t>(s.host()) >= e->graph.num_hosts()) {
        return Status::Error(field + ".host: no host " + std::to_string(s.host()));
      }
      out.push_back(
          {&e->fabric->port(e->graph.hosts()[s.host()], 0), "host" + std::to_string(s.host())});
      continue;
    }
    const fabric_emu::SwitchPortRef& ref = s.switch_port();
    const std::optional<topo::NodeId> n = SelectedSwitch(e->graph, ref);
    if (!n) {
      return Status::Error(field + ".switch_port: no such switch" +
                           (ref.has_name() ? " " + ref.name() : std::string()));
    }
    const topo::Node& sw = e->graph.node(*n);
    if (ref.port() < 0 || static_cast<size_t>(ref.port()) >= sw.links.size()) {
      return Status::Error(field + ".switch_port.port: " + sw.name + " has no port " +
                           std::to_string(ref.port()));
    }
    out.push_back({&e->fabric->port(*n, static_cast<uint16_t>(ref.port())),
                   sw.name + "/" + std::to_string(ref.port())});
  }
  return out;
}

}  // namespace

StatusOr<std::unique_ptr<dp::PcapngWriter>> AttachCapture(const fabric_emu::Scenario& scenario,
                                                          const std::string& out_dir,
                                                          Emulation* e) {
  if (!scenario.has_capture()) return std::unique_ptr<dp::PcapngWriter>();
  StatusOr<std::vector<SelectedPort>> ports = Resolve(scenario.capture(), e);
  if (!ports.ok()) return ports.status();
  std::vector<std::string> names;
  for (const SelectedPort& p : *ports) names.push_back(p.name);
  StatusOr<std::unique_ptr<dp::PcapngWriter>> w =
      dp::PcapngWriter::Open(out_dir + "/" + scenario.capture().file(), names);
  if (!w.ok()) return w.status();
  for (size_t i = 0; i < ports->size(); ++i) {
    (*ports)[i].port->SetCapture(w->get(), static_cast<uint32_t>(i));
  }
  return w;
}

void DetachCapture(const fabric_emu::Scenario& scenario, Emulation* e) {
  StatusOr<std::vector<SelectedPort>> ports = Resolve(scenario.capture(), e);
  if (!ports.ok()) return;
  for (const SelectedPort& p : *ports) p.port->SetCapture(nullptr, 0);
}

}  // namespace fe::control
