#include "control/ideal_fct.h"

#include "dataplane/roce_headers.h"

namespace fe::control {

namespace {
constexpr uint32_t kPerPacketWireBytes = dp::kRoceHeadersBytes + dp::kIcrcBytes + dp::kFcsBytes +
                                         dp::kPreambleAndGapBytes;
}

Time StandaloneFct(uint64_t size_bytes, uint32_t mtu_payload_bytes, const PathShape& path) {
  const uint64_t full = size_bytes / mtu_payload_bytes;
  const uint64_t tail = size_bytes % mtu_payload_bytes;
  const Time full_ser = path.rate.SerializationTime(mtu_payload_bytes + kPerPacketWireBytes);
  const Time tail_ser = path.rate.SerializationTime(tail + kPerPacketWireBytes);
  Time t = full_ser * static_cast<int64_t>(full);
  if (tail > 0) t += tail_ser;
  const Time largest = full > 0 ? full_ser : tail_ser;
  return t + largest * (path.links - 1) + path.delay * path.links;
}

}  // namespace fe::control
