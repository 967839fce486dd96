#include "dataplane/pfc_frame.h"

#include <gtest/gtest.h>

#include <cstring>

#include "dataplane/packet.h"
#include "test_pool.h"

namespace fe::dp {
namespace {

// Offsets and values from IEEE 802.1Qbb (clause 36, PFC frame format, carried over from
// 802.3 Annex 31D): DA 01:80:C2:00:00:01, EtherType 0x8808, opcode 0x0101, a 2-octet
// class-enable vector, eight 2-octet time fields, zero pad to the 60-octet minimum.
TEST(PfcFrameTest, BytesSitWhere802_1QbbPutsThem) {
  testing::TestPool pool;
  rte_mbuf* m = pool.Alloc();
  const uint8_t src[6] = {0x02, 0xfe, 0xff, 0x00, 0x07, 0x02};
  PfcFrame f;
  f.class_enable = 1u << 3;
  f.quanta[3] = 0xFFFF;
  ASSERT_TRUE(WritePfcFrame(m, src, f));
  ASSERT_EQ(rte_pktmbuf_data_len(m), 60u);
  EXPECT_EQ(FrameBytes(m), 64u);  // the Ethernet minimum with its FCS
  const auto* p = rte_pktmbuf_mtod(m, const uint8_t*);
  const uint8_t dst[6] = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x01};
  EXPECT_EQ(std::memcmp(p, dst, 6), 0);
  EXPECT_EQ(std::memcmp(p + 6, src, 6), 0);
  EXPECT_EQ(p[12], 0x88);
  EXPECT_EQ(p[13], 0x08);
  EXPECT_EQ(p[14], 0x01);
  EXPECT_EQ(p[15], 0x01);
  EXPECT_EQ(p[16], 0x00);
  EXPECT_EQ(p[17], 0x08);  // priority 3 enabled
  for (int i = 0; i < 8; ++i) {
    const int hi = p[18 + 2 * i], lo = p[19 + 2 * i];
    EXPECT_EQ(hi, i == 3 ? 0xFF : 0) << i;
    EXPECT_EQ(lo, i == 3 ? 0xFF : 0) << i;
  }
  for (int i = 34; i < 60; ++i) EXPECT_EQ(p[i], 0) << i;
  rte_pktmbuf_free(m);
}

TEST(PfcFrameTest, ParseReadsBackWhatWasWritten) {
  testing::TestPool pool;
  rte_mbuf* m = pool.Alloc();
  const uint8_t src[6] = {};
  PfcFrame f;
  f.class_enable = 0x88;
  f.quanta[3] = 1234;
  f.quanta[7] = 0;
  ASSERT_TRUE(WritePfcFrame(m, src, f));
  EXPECT_TRUE(IsMacControlFrame(m));
  const std::optional<PfcFrame> back = ParsePfcFrame(m);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->class_enable, 0x88);
  EXPECT_EQ(back->quanta, f.quanta);
  rte_pktmbuf_free(m);
}

TEST(PfcFrameTest, RoceFrameIsNotMacControl) {
  testing::TestPool pool;
  rte_mbuf* m = pool.Alloc();
  RoceFields r{};
  r.opcode = BthOpcode::kRcSendOnly;
  ASSERT_TRUE(WriteRocePacket(m, r, 100));
  EXPECT_FALSE(IsMacControlFrame(m));
  EXPECT_FALSE(ParsePfcFrame(m).has_value());
  rte_pktmbuf_free(m);
}

}  // namespace
}  // namespace fe::dp
