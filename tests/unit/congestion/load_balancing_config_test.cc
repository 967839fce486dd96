#include "congestion/load_balancing_config.h"

#include <gtest/gtest.h>

#include <cmath>

namespace fe::cong {
namespace {

TEST(FlowletTableTest, AFlowletLastsWhileGapsStayWithinTheThreshold) {
  FlowletTable table(64);
  uint64_t* slot = table.SlotOf(0x12345678);
  EXPECT_EQ(FlowletTable::LastMember(*slot), -1);      // never used
  EXPECT_FALSE(FlowletTable::Active(*slot, 100, 10));  // an empty slot starts a flowlet
  *slot = FlowletTable::Pack(100, 3);
  EXPECT_EQ(FlowletTable::LastMember(*slot), 3);
  EXPECT_TRUE(FlowletTable::Active(*slot, 110, 10));   // a gap of exactly the threshold
  EXPECT_FALSE(FlowletTable::Active(*slot, 111, 10));  // one tick more: a new flowlet
  // Flows whose hashes agree in the index bits share a slot; the table never grows.
  EXPECT_EQ(table.SlotOf(0x12345678 + 64), slot);
  EXPECT_EQ(table.size(), 64u);
}

TEST(FlowletTableTest, TimestampsWrapAfterFortyEightBitsOfTicks) {
  const uint64_t wrap = uint64_t{1} << 48;
  const uint64_t slot = FlowletTable::Pack(wrap - 5, 0);
  EXPECT_TRUE(FlowletTable::Active(slot, wrap + 4, 10));  // 9 ticks later, across the wrap
  EXPECT_FALSE(FlowletTable::Active(slot, wrap + 6, 10));
}

TEST(LoadBalancingCompileTest, GapRoundsUpToWholeTicks) {
  LbParams p;
  p.flowlet_gap = Time::FromPs(2049);  // 2 ticks of 1024 ps and one ps more
  const StatusOr<LbConfig> c = Compile(p);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->flowlet_gap_ticks, 3u);
}

TEST(LoadBalancingCompileTest, RefusesATableThatIsNotAPowerOfTwoInRange) {
  for (const uint32_t entries : {0u, 32u, 100u, (1u << 20) + 1, 1u << 21}) {
    LbParams p;
    p.flowlet_table_entries = entries;
    const StatusOr<LbConfig> c = Compile(p);
    ASSERT_FALSE(c.ok()) << entries;
    EXPECT_EQ(c.status().message().rfind("flowlet_table_entries:", 0), 0u);
  }
  LbParams p;
  p.flowlet_table_entries = 1u << 20;
  EXPECT_TRUE(Compile(p).ok());
}

// At a steady rate r the decaying count settles at r x W: sending 100 bytes every 10 ps (r = 10
// bytes/ps) with W = 1000 ps, the fixed point of B = B x W / (W + dt) + r dt is r (W + dt) =
// 10 x 1010 = 10100.
TEST(PortLoadTest, SettlesAtTheRateTimesTheWindow) {
  PortLoad load;
  uint64_t sent = 0;
  for (int64_t t = 10; t <= 100000; t += 10) {
    sent += 100;
    load.Update(t, sent, 1000);
  }
  EXPECT_NEAR(load.bytes, 10100, 1e-6);
  // Idle for one window: the hyperbolic decay halves it (exp would leave 1/e).
  load.Update(100000 + 1000, sent, 1000);
  EXPECT_NEAR(load.bytes, 5050, 1e-6);
}

TEST(MemberQualityTest, QueueAndUtilisationBandsAdd) {
  EXPECT_EQ(MemberQuality(0, 8192, 0.0), 0);
  EXPECT_EQ(MemberQuality(8191, 8192, 0.124), 0);  // both inside their first band
  EXPECT_EQ(MemberQuality(8192, 8192, 0.125), 2);  // one band each
  EXPECT_EQ(MemberQuality(1 << 30, 8192, 5.0), 2 * (kQualityBands - 1));  // saturated
}

}  // namespace
}  // namespace fe::cong
