#include "control/serve/realtime_interfaces.h"

#include <google/protobuf/text_format.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <utility>

#include "control/scenario/realtime_eal.h"
#include "control/scenario/validate/validation_site.h"

namespace fe::control {

std::vector<std::string> MissingInterfaces(const std::string& path,
                                           const fabric_emu::Scenario& scenario) {
  // The ports' lines: the file was parsed and validated already, so it parses again; a line
  // left 0 (the file changed meanwhile) still names the field.
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  pb::TextFormat::ParseInfoTree locations;
  pb::TextFormat::Parser parser;
  parser.WriteLocationsTo(&locations);
  fabric_emu::Scenario located;
  parser.ParseFromString(text.str(), &located);
  const Site root(fabric_emu::Scenario::descriptor(), &locations, "", 0);
  const Site rt = root.Nested(fabric_emu::Scenario::kRealtimeFieldNumber);

  Findings missing(path);
  for (int i = 0; i < scenario.realtime().port_size(); ++i) {
    const std::string iface = PortInterface(scenario.realtime().port(i).device_args());
    if (iface.empty() || if_nametoindex(iface.c_str()) != 0) continue;
    const Site port = i < located.realtime().port_size()
                          ? rt.Nested(fabric_emu::Realtime::kPortFieldNumber, i)
                          : Site(fabric_emu::ExternalPort::descriptor(), nullptr,
                                 rt.Path(fabric_emu::Realtime::kPortFieldNumber, i), 0);
    missing.Add(port, fabric_emu::ExternalPort::kDeviceArgsFieldNumber,
                "interface " + iface + " does not exist on this machine");
  }
  return std::move(missing).SortedByLine();
}

std::vector<std::string> DownInterfaces(const fabric_emu::Scenario& scenario) {
  std::vector<std::string> down;
  const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return down;  // nothing to ask the kernel with: no warning rather than a wrong one
  for (const fabric_emu::ExternalPort& p : scenario.realtime().port()) {
    const std::string iface = PortInterface(p.device_args());
    if (iface.empty() || iface.size() >= IFNAMSIZ) continue;
    ifreq request{};
    iface.copy(request.ifr_name, IFNAMSIZ - 1);
    if (ioctl(fd, SIOCGIFFLAGS, &request) != 0 || (request.ifr_flags & IFF_UP) != 0) continue;
    down.push_back("interface " + iface +
                   " is down: the server behind it can send nothing (ip link set " + iface +
                   " up)");
  }
  close(fd);
  return down;
}

}  // namespace fe::control
