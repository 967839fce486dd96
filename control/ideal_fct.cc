#include "control/ideal_fct.h"

#include "dataplane/packet.h"
#include "dataplane/roce_headers.h"

namespace fe::control {

namespace {
// A packet of `payload_bytes` on the wire, padded to Ethernet's 64-byte minimum frame as the
// NIC sends it (a 1-byte packet's frame would be 63 bytes).
uint32_t PacketWireBytes(uint64_t payload_bytes) {
  return dp::WireBytesOfFrame(dp::RoceFrameBytes(static_cast<uint32_t>(payload_bytes)));
}
}  // namespace

Time StandaloneFct(uint64_t size_bytes, uint32_t mtu_payload_bytes, const PathShape& path) {
  const uint64_t full = size_bytes / mtu_payload_bytes;
  const uint64_t tail = size_bytes % mtu_payload_bytes;
  const Time full_ser = path.rate.SerializationTime(PacketWireBytes(mtu_payload_bytes));
  const Time tail_ser = path.rate.SerializationTime(PacketWireBytes(tail));
  Time t = full_ser * static_cast<int64_t>(full);
  if (tail > 0) t += tail_ser;
  const Time largest = full > 0 ? full_ser : tail_ser;
  return t + largest * (path.links - 1) + path.delay * path.links;
}

}  // namespace fe::control
