// The yardstick of slowdown, against store-and-forward worked by hand and against a packet-by-
// packet simulation of the links: a packet of P payload bytes is P + 62 bytes of frame (Eth 14,
// IPv4 20, UDP 8, BTH 12, ICRC 4, FCS 4), at least Ethernet's 64, plus 20 bytes of preamble and
// inter-frame gap.
#include "control/report/ideal_fct.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/random.h"

namespace fe::control {
namespace {

std::vector<PathHop> Uniform(int links, Rate rate, Time delay) {
  return std::vector<PathHop>(links, PathHop{rate, delay});
}

TEST(IdealFctTest, FullPacketsAcrossSixLinks) {
  // 8 packets of 4096 B: 4178 wire bytes, 334.24 ns each at 100 Gb/s. The source sends all 8,
  // each of the 5 further hops adds one, and 6 links add 1 us each.
  const auto path = Uniform(6, Rate::FromGbps(100), Time::FromNs(1000));
  EXPECT_EQ(StandaloneFct(8 * 4096, 4096, path), Time::FromPs((8 + 5) * 334'240 + 6'000'000));
}

TEST(IdealFctTest, ATinyPacketIsPaddedToTheMinimumFrame) {
  // 1 byte: a 63-byte frame, sent as 64 + 20 = 84 bytes, 672 ns at 1 Gb/s, on each of 6 links.
  const auto path = Uniform(6, Rate::FromGbps(1), Time::Zero());
  EXPECT_EQ(StandaloneFct(1, 4096, path), Time::FromNs(6 * 672));
  // 2 bytes make the 64-byte frame exactly: the same time.
  EXPECT_EQ(StandaloneFct(2, 4096, path), Time::FromNs(6 * 672));
  // 3 bytes: a 65-byte frame, 85 bytes on the wire, 680 ns a link.
  EXPECT_EQ(StandaloneFct(3, 4096, path), Time::FromNs(6 * 680));
}

TEST(IdealFctTest, ATailPacketFollowsTheFullOnes) {
  // 4097 B at 100 Gb/s over 2 links of 1 us: a full packet (334.24 ns) and a 1-byte tail (84
  // wire bytes, 6.72 ns) leave the source; the second link adds the larger, the full one.
  const auto path = Uniform(2, Rate::FromGbps(100), Time::FromNs(1000));
  EXPECT_EQ(StandaloneFct(4097, 4096, path), Time::FromPs(334'240 + 6'720 + 334'240 + 2'000'000));
}

TEST(IdealFctTest, TheSlowestLinkPipelinesThePackets) {
  // 100, 25, 100 Gb/s with 100, 200, 300 ns: 4 full packets of 4096 B (4178 wire bytes: 334.24
  // ns at 100 Gb/s, 1336.96 ns at 25). The first reaches the 25 Gb/s link after 334.24 + 100 ns;
  // the four leave it back to back (4 x 1336.96) and the last crosses the third link (334.24).
  const std::vector<PathHop> path = {{Rate::FromGbps(100), Time::FromNs(100)},
                                     {Rate::FromGbps(25), Time::FromNs(200)},
                                     {Rate::FromGbps(100), Time::FromNs(300)}};
  EXPECT_EQ(StandaloneFct(4 * 4096, 4096, path),
            Time::FromPs(334'240 + 4 * 1'336'960 + 334'240 + 600'000));
}

TEST(IdealFctTest, AnEmptyPathTakesNoTime) {
  EXPECT_EQ(StandaloneFct(1000, 4096, std::vector<PathHop>{}), Time::Zero());
}

// Every packet of the message, hop by hop: a node starts a packet once it has all of it and its
// link has finished the previous one; the message is done when the last bit of the last packet
// has propagated over the last link. Independent of the closed form: nothing but the rule.
Time PacketByPacket(uint64_t size_bytes, uint32_t mtu, const std::vector<PathHop>& hops) {
  std::vector<uint64_t> payloads;
  for (uint64_t left = size_bytes; left > 0; left -= std::min<uint64_t>(left, mtu)) {
    payloads.push_back(std::min<uint64_t>(left, mtu));
  }
  std::vector<Time> link_free(hops.size(), Time::Zero());
  Time done = Time::Zero();
  for (const uint64_t payload : payloads) {
    // Frame bytes as the NIC sends them: 62 bytes of headers, padded to 64, plus 20 of gap.
    const int64_t wire = std::max<int64_t>(static_cast<int64_t>(payload) + 62, 64) + 20;
    Time arrived = Time::Zero();  // at the node before hop j, all of the packet
    for (size_t j = 0; j < hops.size(); ++j) {
      const Time start = std::max(arrived, link_free[j]);
      link_free[j] = start + hops[j].rate.SerializationTime(wire);
      arrived = link_free[j] + hops[j].delay;
    }
    done = arrived;
  }
  return done;
}

// Exact to the picosecond over 2,000 random paths: 1 to 7 links of 1 to 800 Gb/s and 0 to 5 us,
// messages of 1 B to 300 KB (a partial last packet or none), MTUs from 256 to 9000 B.
TEST(IdealFctTest, ClosedFormEqualsPacketByPacketOnMixedLinks) {
  Random rng(14);
  const int64_t rates_gbps[] = {1, 10, 25, 40, 50, 100, 200, 400, 800};
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<PathHop> hops(1 + rng.NextBelow(7));
    for (PathHop& h : hops) {
      h.rate = Rate::FromGbps(rates_gbps[rng.NextBelow(std::size(rates_gbps))]);
      h.delay = Time::FromPs(static_cast<int64_t>(rng.NextBelow(5'000'001)));
    }
    const uint32_t mtu = 256 + static_cast<uint32_t>(rng.NextBelow(9000 - 256 + 1));
    const uint64_t size = 1 + rng.NextBelow(300'000);
    ASSERT_EQ(StandaloneFct(size, mtu, hops), PacketByPacket(size, mtu, hops))
        << "trial " << trial << ": " << size << " B, MTU " << mtu << ", " << hops.size()
        << " links";
  }
}

}  // namespace
}  // namespace fe::control
