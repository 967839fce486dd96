// What serve passes to DPDK's EAL: its safe defaults merged with realtime.eal_args (or --eal),
// the ports' devices, and what a user reads about it in `serve --help`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "proto/scenario.pb.h"

namespace fe::control {

// serve's defaults: one lcore and 1 GB of heap without hugepages.
inline constexpr int kServeEalMemoryMb = 1024;

// The EAL arguments for the scenario (dp::MergeEalArgs over the ports' devices).
StatusOr<std::vector<std::string>> ServeEalArgs(const fabric_emu::Scenario& scenario);

// The kernel interface a port's device uses, for the virtual devices that attach to one
// (net_af_packet, net_af_xdp, net_pcap: iface=...); "" for any other device.
std::string PortInterface(const std::string& device_args);

// Why fabric-emu cannot open the device `device_args` names (its driver is not linked in), or ""
// for a PCI address or one of the linked virtual devices (net_af_packet, net_tap, net_null,
// net_ring, or their eth_ aliases).
std::string UnknownDriver(const std::string& device_args);

// The part of `serve --help` on EAL arguments.
extern const std::string_view kServeEalHelp;

}  // namespace fe::control
