// The real-time section: EAL arguments and the real ports, each on its own host of the fabric.
#include <algorithm>
#include <cctype>
#include <map>

#include "control/scenario/realtime_eal.h"
#include "control/scenario/validate/validation.h"
#include "dataplane/realtime/eth_port.h"

namespace fe::control {
namespace {

using fabric_emu::ExternalPort;

}  // namespace

void ValidateRealtime(Validation& v) {
  const Site s = v.root.Nested(fabric_emu::Scenario::kRealtimeFieldNumber);
  const auto& rt = v.scenario.realtime();
  if (const StatusOr<std::vector<std::string>> eal = ServeEalArgs(v.scenario); !eal.ok()) {
    v.out.Add(s, fabric_emu::Realtime::kEalArgsFieldNumber, eal.status().message());
  }
  // A real-time section attaches real hosts; without one, serve would run the emulated traffic
  // alone in real time, which `run` does faster and deterministically.
  if (v.scenario.has_realtime() && rt.port_size() == 0) {
    v.out.Add(s, fabric_emu::Realtime::kPortFieldNumber,
              "at least one port (a real host attached to the fabric); for emulated traffic "
              "alone, use `fabric-emu run`");
  }
  std::map<int32_t, int> host_seen;
  std::map<std::string, int> device_seen;
  std::map<std::string, int> interface_seen;
  for (int i = 0; i < rt.port_size(); ++i) {
    const ExternalPort& p = rt.port(i);
    const Site ps = s.Nested(fabric_emu::Realtime::kPortFieldNumber, i);
    if (v.out.Present(ps, ExternalPort::kDeviceArgsFieldNumber, !p.device_args().empty(),
                      "DPDK device arguments, e.g. \"net_af_packet0,iface=veth-a\"")) {
      // A device is named before its first comma; what follows are its options, so two
      // spellings of one device's options are still one device.
      const std::string& args = p.device_args();
      const std::string device = dp::DeviceName(args);
      if (std::any_of(args.begin(), args.end(),
                      [](char c) { return std::isspace(static_cast<unsigned char>(c)); })) {
        v.out.Add(
            ps, ExternalPort::kDeviceArgsFieldNumber,
            "must not contain white space (it becomes one EAL argument), got " + Quoted(args));
      } else if (const std::string why = UnknownDriver(args); !why.empty()) {
        v.out.Add(ps, ExternalPort::kDeviceArgsFieldNumber, why);
      } else if (const auto [it, fresh] = device_seen.emplace(device, i); !fresh) {
        v.out.Add(ps, ExternalPort::kDeviceArgsFieldNumber,
                  "device " + device + " already used by " +
                      s.Path(fabric_emu::Realtime::kPortFieldNumber, it->second));
      } else if (const std::string iface = PortInterface(args); !iface.empty()) {
        // Two sockets on one interface would each get every frame the server sends, and the
        // second port's host would never learn its server.
        if (const auto [at, first] = interface_seen.emplace(iface, i); !first) {
          v.out.Add(ps, ExternalPort::kDeviceArgsFieldNumber,
                    "interface " + iface + " already used by " +
                        s.Path(fabric_emu::Realtime::kPortFieldNumber, at->second));
        }
      }
    }
    v.CheckHost(ps, ExternalPort::kHostFieldNumber, p.has_host(), p.host());
    if (p.has_host()) {
      if (const auto [it, fresh] = host_seen.emplace(p.host(), i); !fresh) {
        v.out.Add(ps, ExternalPort::kHostFieldNumber,
                  "host " + std::to_string(p.host()) + " is already attached to " +
                      s.Path(fabric_emu::Realtime::kPortFieldNumber, it->second));
      }
    }
  }
}

}  // namespace fe::control
