// The real-time section: EAL arguments and the real ports, each on its own host of the fabric.
#include <algorithm>
#include <cctype>
#include <map>

#include "control/validation.h"
#include "dataplane/eal.h"

namespace fe::control {
namespace {

using fabric_emu::ExternalPort;

}  // namespace

void ValidateRealtime(Validation& v) {
  const Site s = v.root.Nested(fabric_emu::Scenario::kRealtimeFieldNumber);
  const auto& rt = v.scenario.realtime();
  if (const std::string why = dp::RefusedEalArgs(dp::SplitEalArgs(rt.eal_args())); !why.empty()) {
    v.out.Add(s, fabric_emu::Realtime::kEalArgsFieldNumber, why);
  }
  std::map<int32_t, int> host_seen;
  std::map<std::string, int> device_seen;
  for (int i = 0; i < rt.port_size(); ++i) {
    const ExternalPort& p = rt.port(i);
    const Site ps = s.Nested(fabric_emu::Realtime::kPortFieldNumber, i);
    if (v.out.Present(ps, ExternalPort::kDeviceArgsFieldNumber, !p.device_args().empty(),
                      "DPDK device arguments, e.g. \"net_af_packet0,iface=veth-a\"")) {
      // A device is named before its first comma; what follows are its options, so two
      // spellings of one device's options are still one device.
      const std::string& args = p.device_args();
      const std::string device = args.substr(0, args.find(','));
      if (std::any_of(args.begin(), args.end(),
                      [](char c) { return std::isspace(static_cast<unsigned char>(c)); })) {
        v.out.Add(
            ps, ExternalPort::kDeviceArgsFieldNumber,
            "must not contain white space (it becomes one EAL argument), got " + Quoted(args));
      } else if (const auto [it, fresh] = device_seen.emplace(device, i); !fresh) {
        v.out.Add(ps, ExternalPort::kDeviceArgsFieldNumber,
                  "device " + device + " already used by " +
                      s.Path(fabric_emu::Realtime::kPortFieldNumber, it->second));
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
