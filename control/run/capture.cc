#include "control/run/capture.h"

#include <optional>
#include <vector>

#include "control/scenario/switch_ref.h"

namespace fe::control {

namespace {

// Where one selected port's frames are recorded.
struct SelectedPort {
  std::string name;
  dp::EgressPort* sent = nullptr;      // the port's own transmissions, if recorded
  dp::EgressPort* received = nullptr;  // its peer's, which it receives, if recorded
  dp::ExternalHost* real = nullptr;    // a real host's port: recorded at the cable instead
  bool real_sent = false;
  bool real_received = false;
};

StatusOr<std::vector<SelectedPort>> Resolve(const fabric_emu::Capture& c, Emulation* e,
                                            std::span<dp::ExternalHost* const> real_hosts) {
  std::vector<SelectedPort> out;
  for (int i = 0; i < c.port_size(); ++i) {
    const fabric_emu::PortSelector& s = c.port(i);
    const std::string field = "capture.port[" + std::to_string(i) + "]";
    topo::PortRef at;
    SelectedPort sel;
    if (s.has_host()) {
      if (s.host() < 0 || static_cast<size_t>(s.host()) >= e->graph.num_hosts()) {
        return Status::Error(field + ".host: no host " + std::to_string(s.host()));
      }
      at = {e->graph.hosts()[s.host()], 0};
      sel.name = "host" + std::to_string(s.host());
      for (dp::ExternalHost* h : real_hosts) {
        if (h->host() == static_cast<uint32_t>(s.host())) sel.real = h;
      }
    } else {
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
      at = {*n, static_cast<uint16_t>(ref.port())};
      sel.name = sw.name + "/" + std::to_string(ref.port());
    }
    // A server on a real port is usually debugged both ways; an emulated port keeps what a
    // capture always recorded, what it sends.
    fabric_emu::CaptureDirection d = s.direction();
    if (d == fabric_emu::CAPTURE_DIRECTION_UNSPECIFIED) {
      d = sel.real != nullptr ? fabric_emu::BOTH : fabric_emu::TX;
    }
    const bool tx = d == fabric_emu::TX || d == fabric_emu::BOTH;
    const bool rx = d == fabric_emu::RX || d == fabric_emu::BOTH;
    if (sel.real != nullptr) {
      sel.real_sent = tx;
      sel.real_received = rx;
    } else {
      const topo::PortRef peer = e->graph.Peer(at);
      if (tx) sel.sent = &e->fabric->port(at.node, at.port);
      if (rx) sel.received = &e->fabric->port(peer.node, peer.port);
    }
    out.push_back(sel);
  }
  return out;
}

}  // namespace

StatusOr<std::unique_ptr<dp::PcapngWriter>> AttachCapture(
    const fabric_emu::Scenario& scenario, const std::string& out_dir, Emulation* e,
    std::span<dp::ExternalHost* const> real_hosts) {
  if (!scenario.has_capture()) return std::unique_ptr<dp::PcapngWriter>();
  StatusOr<std::vector<SelectedPort>> ports = Resolve(scenario.capture(), e, real_hosts);
  if (!ports.ok()) return ports.status();
  std::vector<std::string> names;
  for (const SelectedPort& p : *ports) names.push_back(p.name);
  StatusOr<std::unique_ptr<dp::PcapngWriter>> w =
      dp::PcapngWriter::Open(out_dir + "/" + scenario.capture().file(), names);
  if (!w.ok()) return w.status();
  for (size_t i = 0; i < ports->size(); ++i) {
    const SelectedPort& p = (*ports)[i];
    const auto interface = static_cast<uint32_t>(i);
    if (p.sent != nullptr) p.sent->SetCapture(w->get(), interface);
    if (p.received != nullptr) p.received->SetPeerCapture(w->get(), interface);
    if (p.real != nullptr) {
      p.real->SetCapture(w->get(), interface, p.real_sent, p.real_received, &e->sched);
    }
  }
  return w;
}

void DetachCapture(const fabric_emu::Scenario& scenario, Emulation* e,
                   std::span<dp::ExternalHost* const> real_hosts) {
  StatusOr<std::vector<SelectedPort>> ports = Resolve(scenario.capture(), e, real_hosts);
  if (!ports.ok()) return;
  for (const SelectedPort& p : *ports) {
    if (p.sent != nullptr) p.sent->SetCapture(nullptr, 0);
    if (p.received != nullptr) p.received->SetPeerCapture(nullptr, 0);
    if (p.real != nullptr) p.real->SetCapture(nullptr, 0, false, false, nullptr);
  }
}

}  // namespace fe::control
