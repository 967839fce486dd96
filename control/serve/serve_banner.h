// What `fabric-emu serve` prints before it starts: the fabric it emulates in one line, where each
// real host sits, and the least round-trip time the fabric gives a ping between each pair of real
// hosts, so a ping's figure can be judged at once.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/units.h"
#include "topology/graph.h"
#include "topology/routes.h"

namespace fe::control {

// Ping's default echo request: 14 Ethernet + 20 IPv4 + 8 ICMP + 56 data bytes, + 4 FCS.
inline constexpr uint32_t kPingFrameBytes = 102;

// A real host: the topology's host index and the device it is cabled to.
struct RealHostPlace {
  uint32_t host = 0;
  std::string device_args;
};

// The least round trip between two hosts for a frame of frame_bytes (FCS included) each way:
// propagation plus store-and-forward serialisation (padding, preamble and gap included) on every
// link of the route's path there and of its path back (topo::PathLinks), as an otherwise idle
// fabric gives it. Zero when either way has no path.
Time MinRoundTrip(const topo::Graph& graph, const topo::RouteTable& routes, uint32_t a, uint32_t b,
                  uint32_t frame_bytes);

// Lines, each ending in '\n' and starting with "serve: ": the fabric, each real host, each pair's
// MinRoundTrip for ping's default frame.
std::string ServeBanner(const std::string& scenario_name, const topo::Graph& graph,
                        const topo::RouteTable& routes, std::span<const RealHostPlace> real_hosts);

}  // namespace fe::control
