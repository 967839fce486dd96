#include "dataplane/int_stamp.h"

#include <algorithm>
#include <cstring>

#include "dataplane/packet.h"

namespace fe::dp {

namespace {

constexpr uint8_t kCollect = kIntCollectFlag;
constexpr uint8_t kCountMask = 0x07;
constexpr uint32_t kRecordBytes = 9;
static_assert(1 + kMaxStampedHops * kRecordBytes <= sizeof(PacketMeta::int_stack));

constexpr uint64_t kTsMask = (uint64_t{1} << 24) - 1;
constexpr uint64_t kTxMask = (uint64_t{1} << 20) - 1;

// Record layout, little-endian 72 bits: ts(24) | tx(20) | queue(16) | rate(12).
void Store(uint8_t* p, const StampedHop& h) {
  const uint64_t lo = (uint64_t{h.timestamp_ns} & kTsMask) |
                      ((uint64_t{h.tx_units} & kTxMask) << 24) | (uint64_t{h.queue_units} << 44) |
                      (static_cast<uint64_t>(h.rate_gbps & 0xf) << 60);
  std::memcpy(p, &lo, 8);
  p[8] = static_cast<uint8_t>(h.rate_gbps >> 4);
}

StampedHop Load(const uint8_t* p) {
  uint64_t lo;
  std::memcpy(&lo, p, 8);
  StampedHop h;
  h.timestamp_ns = static_cast<uint32_t>(lo & kTsMask);
  h.tx_units = static_cast<uint32_t>((lo >> 24) & kTxMask);
  h.queue_units = static_cast<uint16_t>(lo >> 44);
  h.rate_gbps = static_cast<uint16_t>(((lo >> 60) & 0xf) | (uint32_t{p[8]} << 4));
  return h;
}

}  // namespace

void InitIntStack(rte_mbuf* m, bool collect) {
  if (!collect) {
    SetIntFlags(m, 0);
    return;
  }
  SetIntFlags(m, kIntCarried | kIntCollecting);
  Meta(m).int_stack[0] = kCollect;
}

void StampInt(rte_mbuf* m, const cong::IntHop& hop) {
  if (!CollectsInt(m)) return;
  uint8_t* stack = Meta(m).int_stack;
  if ((stack[0] & kCollect) == 0) return;
  const uint32_t n = stack[0] & kCountMask;
  if (n >= kMaxStampedHops) return;
  StampedHop s;
  s.timestamp_ns = static_cast<uint32_t>(static_cast<uint64_t>(hop.timestamp.ns()) & kTsMask);
  s.tx_units = static_cast<uint32_t>((hop.tx_bytes / kIntTxUnitBytes) & kTxMask);
  s.queue_units =
      static_cast<uint16_t>(std::min<uint32_t>(hop.queue_bytes / kIntQueueUnitBytes, UINT16_MAX));
  s.rate_gbps = static_cast<uint16_t>(std::min<int64_t>(hop.link_rate.bps() / 1'000'000'000, 4095));
  Store(stack + 1 + n * kRecordBytes, s);
  stack[0] = static_cast<uint8_t>(kCollect | (n + 1));
}

void CopyIntStack(const rte_mbuf* from, rte_mbuf* to) {
  // Without HPCC nothing was collected: neither private area is touched (a pool without HPCC
  // traffic has none).
  if ((IntFlags(from) & kIntCarried) == 0) {
    SetIntFlags(to, 0);
    return;
  }
  SetIntFlags(to, kIntCarried);
  std::memcpy(Meta(to).int_stack, Meta(from).int_stack, 1 + kMaxStampedHops * kRecordBytes);
  Meta(to).int_stack[0] &= static_cast<uint8_t>(~kCollect);
}

uint32_t ReadIntStack(const rte_mbuf* m, std::span<StampedHop, kMaxStampedHops> out) {
  if ((IntFlags(m) & kIntCarried) == 0) return 0;
  const uint8_t* stack = Meta(m).int_stack;
  const uint32_t n = std::min<uint32_t>(stack[0] & kCountMask, kMaxStampedHops);
  for (uint32_t i = 0; i < n; ++i) out[i] = Load(stack + 1 + i * kRecordBytes);
  return n;
}

cong::IntHop ExpandIntHop(const StampedHop& stamped, const cong::IntHop& previous) {
  cong::IntHop h;
  const uint64_t prev_ns = static_cast<uint64_t>(previous.timestamp.ns());
  const uint64_t dt_ns = (stamped.timestamp_ns - prev_ns) & kTsMask;
  h.timestamp = Time::FromNs(static_cast<int64_t>(prev_ns + dt_ns));
  const uint64_t prev_units = previous.tx_bytes / kIntTxUnitBytes;
  const uint64_t dtx_units = (stamped.tx_units - prev_units) & kTxMask;
  h.tx_bytes = (prev_units + dtx_units) * kIntTxUnitBytes;
  h.queue_bytes = uint32_t{stamped.queue_units} * kIntQueueUnitBytes;
  h.link_rate = Rate::FromGbps(stamped.rate_gbps);
  return h;
}

}  // namespace fe::dp
