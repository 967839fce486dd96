// The yardstick of slowdown, against store-and-forward worked by hand: a packet of P payload
// bytes is P + 62 bytes of frame (Eth 14, IPv4 20, UDP 8, BTH 12, ICRC 4, FCS 4), at least
// Ethernet's 64, plus 20 bytes of preamble and inter-frame gap.
#include "control/ideal_fct.h"

#include <gtest/gtest.h>

namespace fe::control {
namespace {

TEST(IdealFctTest, FullPacketsAcrossSixLinks) {
  // 8 packets of 4096 B: 4178 wire bytes, 334.24 ns each at 100 Gb/s. The source sends all 8,
  // each of the 5 further hops adds one, and 6 links add 1 us each.
  const PathShape path{6, Rate::FromGbps(100), Time::FromNs(1000)};
  EXPECT_EQ(StandaloneFct(8 * 4096, 4096, path), Time::FromPs((8 + 5) * 334'240 + 6'000'000));
}

TEST(IdealFctTest, ATinyPacketIsPaddedToTheMinimumFrame) {
  // 1 byte: a 63-byte frame, sent as 64 + 20 = 84 bytes, 672 ns at 1 Gb/s, on each of 6 links.
  const PathShape path{6, Rate::FromGbps(1), Time::Zero()};
  EXPECT_EQ(StandaloneFct(1, 4096, path), Time::FromNs(6 * 672));
  // 2 bytes make the 64-byte frame exactly: the same time.
  EXPECT_EQ(StandaloneFct(2, 4096, path), Time::FromNs(6 * 672));
  // 3 bytes: a 65-byte frame, 85 bytes on the wire, 680 ns a link.
  EXPECT_EQ(StandaloneFct(3, 4096, path), Time::FromNs(6 * 680));
}

TEST(IdealFctTest, ATailPacketFollowsTheFullOnes) {
  // 4097 B at 100 Gb/s over 2 links of 1 us: a full packet (334.24 ns) and a 1-byte tail (84
  // wire bytes, 6.72 ns) leave the source; the second link adds the larger, the full one.
  const PathShape path{2, Rate::FromGbps(100), Time::FromNs(1000)};
  EXPECT_EQ(StandaloneFct(4097, 4096, path), Time::FromPs(334'240 + 6'720 + 334'240 + 2'000'000));
}

}  // namespace
}  // namespace fe::control
