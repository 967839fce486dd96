#include "dataplane/pfc_frame.h"

#include <cstring>

#include "dataplane/packet.h"

namespace fe::dp {

namespace {

// 802.1Qbb clause 36 / 802.3 Annex 31D: the frame's layout after the 14-byte Ethernet header.
constexpr uint32_t kOpcodeOffset = 14;
constexpr uint32_t kClassEnableOffset = 16;
constexpr uint32_t kQuantaOffset = 18;
constexpr uint8_t kPfcDestMac[6] = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x01};

uint16_t Load16(const uint8_t* p) { return static_cast<uint16_t>((p[0] << 8) | p[1]); }
void Store16(uint8_t* p, uint16_t v) {
  p[0] = static_cast<uint8_t>(v >> 8);
  p[1] = static_cast<uint8_t>(v);
}

}  // namespace

bool WritePfcFrame(rte_mbuf* m, const uint8_t src_mac[6], const PfcFrame& frame) {
  uint8_t* p = AppendBytes(m, kPfcFrameBytesNoFcs);
  if (p == nullptr) return false;
  std::memset(p, 0, kPfcFrameBytesNoFcs);
  std::memcpy(p, kPfcDestMac, 6);
  std::memcpy(p + 6, src_mac, 6);
  Store16(p + 12, kMacControlEtherType);
  Store16(p + kOpcodeOffset, kPfcOpcode);
  Store16(p + kClassEnableOffset, frame.class_enable);
  for (int i = 0; i < cong::kNumPriorities; ++i)
    Store16(p + kQuantaOffset + 2 * i, frame.quanta[i]);
  SetVirtualBytes(m, 0);
  SetIntFlags(m, 0);
  return true;
}

std::optional<PfcFrame> ParsePfcFrame(const rte_mbuf* m) {
  if (rte_pktmbuf_data_len(m) < kQuantaOffset + 2 * cong::kNumPriorities) return std::nullopt;
  const auto* p = rte_pktmbuf_mtod(m, const uint8_t*);
  if (Load16(p + 12) != kMacControlEtherType || Load16(p + kOpcodeOffset) != kPfcOpcode) {
    return std::nullopt;
  }
  PfcFrame f;
  f.class_enable = static_cast<uint8_t>(Load16(p + kClassEnableOffset));
  for (int i = 0; i < cong::kNumPriorities; ++i) f.quanta[i] = Load16(p + kQuantaOffset + 2 * i);
  return f;
}

}  // namespace fe::dp
