// links.csv: what each direction of each link carried over the run, one row per egress port
// (every node, every port), so that a report can draw link utilisation without the run.
#pragma once

#include <string>

#include "control/emulation/emulation.h"
#include "core/units.h"

namespace fe::control {

// Header node,port,kind,peer,peer_port,rate_bps,tx_packets,tx_wire_bytes,busy_ns,utilization.
// kind is host or switch; busy_ns is the time the port spent serialising frames (wire bytes:
// frame, preamble and inter-frame gap) and utilization busy_ns / simulated_time, the share of
// the run the link direction was sending. Rows in node then port order.
std::string LinksCsv(const Emulation& e, Time simulated_time);

}  // namespace fe::control
