// The kernel interfaces a scenario's real-time ports attach to (net_af_packet and the like:
// iface=NAME), checked on the machine the command runs on: serve refuses a port whose interface
// does not exist before the EAL starts (DPDK would only say "Operation not permitted"), and
// validate warns, as it may run on a machine other than the emulator box; an interface that is
// down is warned about by both.
#pragma once

#include <string>
#include <vector>

#include "proto/scenario.pb.h"

namespace fe::control {

// "FILE:LINE: realtime.port[i].device_args: interface NAME does not exist on this machine" for
// each port whose interface if_nametoindex() does not find. `path` is the scenario's file, read
// again for the ports' lines; `scenario` is what it holds with the command line's changes.
std::vector<std::string> MissingInterfaces(const std::string& path,
                                           const fabric_emu::Scenario& scenario);

// "interface NAME is down: ..." for each port's interface that exists but is not up: the server
// behind it can send nothing, and serve would run with no frame in or out.
std::vector<std::string> DownInterfaces(const fabric_emu::Scenario& scenario);

}  // namespace fe::control
