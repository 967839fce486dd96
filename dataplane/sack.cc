#include "dataplane/sack.h"

#include "dataplane/roce_headers.h"

namespace fe::dp {

void WriteSack(const SackBlock& s, uint32_t first_missing, uint8_t* out) {
  const uint32_t offset = s.base_psn / kSackBlockPackets - first_missing / kSackBlockPackets;
  out[0] = static_cast<uint8_t>(offset >> 8);
  out[1] = static_cast<uint8_t>(offset);
  for (int i = 0; i < 4; ++i) out[2 + i] = static_cast<uint8_t>(s.received >> (24 - 8 * i));
}

bool ReadSack(const rte_mbuf* m, uint32_t first_missing, SackBlock* s) {
  constexpr uint32_t kAt = kRoceHeadersBytes + kAethBytes;
  if (rte_pktmbuf_data_len(m) < kAt + kSackBytes) return false;
  const auto* p = rte_pktmbuf_mtod_offset(m, const uint8_t*, kAt);
  const uint32_t offset = (uint32_t{p[0]} << 8) | p[1];
  s->base_psn = (first_missing / kSackBlockPackets + offset) * kSackBlockPackets;
  s->received = 0;
  for (int i = 0; i < 4; ++i) s->received = (s->received << 8) | p[2 + i];
  return true;
}

}  // namespace fe::dp
