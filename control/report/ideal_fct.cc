#include "control/report/ideal_fct.h"

#include <algorithm>

#include "dataplane/packet.h"
#include "dataplane/roce_headers.h"
#include "topology/path.h"

namespace fe::control {

namespace {
// A packet of `payload_bytes` on the wire, padded to Ethernet's 64-byte minimum frame as the
// NIC sends it (a 1-byte packet's frame would be 63 bytes).
uint32_t PacketWireBytes(uint64_t payload_bytes) {
  return dp::WireBytesOfFrame(dp::RoceFrameBytes(static_cast<uint32_t>(payload_bytes)));
}
}  // namespace

void PathHopsOf(const topo::Graph& graph, const topo::RouteTable& routes, uint32_t src_host,
                uint32_t dst_host, uint32_t spread, std::vector<PathHop>* hops) {
  hops->clear();
  for (const topo::LinkId l : topo::PathLinks(graph, routes, src_host, dst_host, spread)) {
    hops->push_back(PathHop{graph.link(l).rate, graph.link(l).delay});
  }
}

Time StandaloneFct(uint64_t size_bytes, uint32_t mtu_payload_bytes, std::span<const PathHop> hops) {
  if (hops.empty()) return Time::Zero();
  const uint64_t packets = (size_bytes + mtu_payload_bytes - 1) / mtu_payload_bytes;
  const uint64_t tail = size_bytes - (packets - 1) * mtu_payload_bytes;  // the last packet's
  const uint32_t full_wire = PacketWireBytes(mtu_payload_bytes);
  const uint32_t tail_wire = PacketWireBytes(tail);

  Time delays = Time::Zero();
  Time last_to_end = Time::Zero();  // sum_{j>=c} T_j, built from the end
  for (const PathHop& h : hops) {
    delays += h.delay;
    last_to_end += h.rate.SerializationTime(tail_wire);
  }
  if (packets == 1) return last_to_end + delays;
  const auto between = static_cast<int64_t>(packets - 2);  // packets between first and last
  Time first_to_c = Time::Zero();                          // sum_{j<=c} F_j
  Time bottleneck = Time::Zero();                          // max_{j<=c} F_j
  Time longest = Time::Zero();
  for (const PathHop& h : hops) {
    const Time full = h.rate.SerializationTime(full_wire);
    first_to_c += full;
    bottleneck = std::max(bottleneck, full);
    longest = std::max(longest, first_to_c + bottleneck * between + last_to_end);
    last_to_end -= h.rate.SerializationTime(tail_wire);
  }
  return longest + delays;
}

}  // namespace fe::control
