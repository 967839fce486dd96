#include "control/scenario/realtime_eal.h"

#include <regex>

#include "dataplane/eal.h"
#include "dataplane/realtime/eal_args.h"
#include "dataplane/realtime/eth_port.h"

namespace fe::control {
namespace {

bool IsPciAddress(const std::string& device_args) {
  static const std::regex kPci("^([0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7](,.*)?$");
  return std::regex_match(device_args, kPci);
}

}  // namespace

std::string UnknownDriver(const std::string& device_args) {
  if (IsPciAddress(device_args)) return "";
  // The virtual-device drivers cmake/dpdk_static.cmake links in; a device is named by its
  // driver followed by anything ("net_af_packet0"), or by the driver's alias.
  constexpr std::string_view kDrivers[] = {"net_af_packet", "net_tap",  "net_null", "net_ring",
                                           "eth_af_packet", "eth_null", "eth_ring"};
  const std::string device = dp::DeviceName(device_args);
  for (const std::string_view d : kDrivers) {
    if (device.starts_with(d)) return "";
  }
  return "no driver for device " + device +
         ": fabric-emu opens a PCI address (Intel ice, i40e, iavf, ixgbe, e1000, NVIDIA mlx5, "
         "virtio) or a virtual device of net_af_packet, net_tap, net_null or net_ring, named "
         "by its driver, e.g. \"net_af_packet0,iface=veth-a\"";
}

const std::string_view kServeEalHelp =
    "EAL arguments (printed at start, and kept in summary.json):\n"
    "  defaults   -l 0 --no-huge -m 1024 --no-shconf --no-telemetry, then each port's device:\n"
    "             -a ADDRESS for a PCI address, --vdev ARGS for a virtual device, and --no-pci\n"
    "             when no port is a PCI device (no other PCI device is ever probed)\n"
    "  merge      realtime.eal_args (or --eal) adds to the defaults and replaces only what it\n"
    "             names: -l/-c/--lcores replace -l; -m replaces -m; a hugepage option\n"
    "             (--huge-dir, --socket-mem, --socket-limit, --huge-unlink, --in-memory,\n"
    "             --legacy-mem, --single-file-segments, --match-allocations) drops --no-huge\n"
    "             and -m; --file-prefix or --in-memory drops --no-shconf; --telemetry drops\n"
    "             --no-telemetry. Devices come from the ports only: -a/--vdev naming another\n"
    "             device, -b, -d, and a --proc-type other than primary are refused.\n"
    "\n";

std::string PortInterface(const std::string& device_args) {
  static const std::regex kIfaceDevice("^net_(af_packet|af_xdp|pcap)[^,]*,(.*,)?iface=([^,]+).*$");
  std::smatch m;
  return std::regex_match(device_args, m, kIfaceDevice) ? m[3].str() : "";
}

StatusOr<std::vector<std::string>> ServeEalArgs(const fabric_emu::Scenario& scenario) {
  dp::EalDevices devices;
  for (const auto& p : scenario.realtime().port()) {
    // A virtual device as serve opens it, its default options added (dp::EthPort).
    if (IsPciAddress(p.device_args())) {
      devices.pci.push_back(p.device_args());
    } else {
      devices.vdevs.push_back(dp::WithDefaultDeviceArgs(p.device_args()));
    }
  }
  return dp::MergeEalArgs(dp::SplitEalArgs(scenario.realtime().eal_args()), devices,
                          {.lcores = "0", .memory_mb = kServeEalMemoryMb});
}

}  // namespace fe::control
