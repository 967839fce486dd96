#include "control/scenario/packet_budget.h"

#include <gtest/gtest.h>

namespace fe::control {
namespace {

constexpr uint64_t kGiB = uint64_t{1} << 30;
constexpr uint64_t kBytesPerPacket = 224;  // a host-page mbuf (192 B) and its arrival event
constexpr uint64_t kMinPool = 8191;

SetUpCost K64() {  // a k = 64 fat-tree, one message per host
  SetUpCost c;
  c.link_ends = 393216;
  c.hosts = 65536;
  c.switches = 5120;
  c.messages = 65536;
  return c;
}

TEST(PacketBudget, SetUpCostIsTheSumOfItsElements) {
  const SetUpCost c = K64();
  EXPECT_EQ(c.Bytes(), SetUpCost::kBaseBytes + 393216 * SetUpCost::kBytesPerLinkEnd +
                           65536 * SetUpCost::kBytesPerHost + 5120 * SetUpCost::kBytesPerSwitch +
                           65536 * SetUpCost::kBytesPerMessage);
}

TEST(PacketBudget, ASmallWorkloadKeepsTwiceItsPackets) {
  StatusOr<PacketBudget> b =
      PlanPacketBudget(K64(), 1'000'000, kBytesPerPacket, 20 * kGiB, false, kMinPool);
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(b->pool_cap, 2 * 1'000'000 + 4096u);
  EXPECT_FALSE(b->memory_bound);
}

TEST(PacketBudget, ALargeWorkloadIsBoundByMemory) {
  // 65,536 hosts x 500 packets: twice that is 65.5 M packets, 14.7 GB, more than 90% of 8 GiB
  // less the set-up leaves.
  const uint64_t packets = 65536ull * 500;
  StatusOr<PacketBudget> b =
      PlanPacketBudget(K64(), packets, kBytesPerPacket, 8 * kGiB, false, kMinPool);
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_TRUE(b->memory_bound);
  EXPECT_EQ(b->pool_cap, (8 * kGiB / 100 * 90 - K64().Bytes()) / kBytesPerPacket);
}

TEST(PacketBudget, UnknownMemoryLeavesTheWorkloadsCap) {
  StatusOr<PacketBudget> b =
      PlanPacketBudget(K64(), 65536ull * 500, kBytesPerPacket, 0, false, kMinPool);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->pool_cap, 2 * 65536ull * 500 + 4096);
  EXPECT_FALSE(b->memory_bound);
}

TEST(PacketBudget, AFabricThatCannotBeSetUpIsRefusedWithWhatItNeeds) {
  // k = 64 needs about 0.47 GiB before its first packet; 256 MiB cannot hold it.
  StatusOr<PacketBudget> b =
      PlanPacketBudget(K64(), 65536ull * 500, kBytesPerPacket, kGiB / 4, false, kMinPool);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("393216 link ends"), std::string::npos)
      << b.status().message();
  EXPECT_NE(b.status().message().find("the machine had 0.25 GiB available"), std::string::npos)
      << b.status().message();
}

TEST(PacketBudget, AGivenLimitIsNamedAsTheLimit) {
  StatusOr<PacketBudget> b =
      PlanPacketBudget(K64(), 65536ull * 500, kBytesPerPacket, kGiB / 4, true, kMinPool);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("run.memory_limit_bytes allows 0.25 GiB"), std::string::npos)
      << b.status().message();
}

TEST(PacketBudget, RunningOutOfMemorySaysHowMuchThePacketsHeld) {
  StatusOr<PacketBudget> b =
      PlanPacketBudget(K64(), 65536ull * 500, kBytesPerPacket, 8 * kGiB, false, kMinPool);
  ASSERT_TRUE(b.ok());
  // 4,194,304 packets x 224 B = 0.875 GiB.
  const std::string text = OutOfPacketsMessage(*b, 4194304, Time::FromNs(10500), 0);
  EXPECT_NE(text.find("simulated 10500 ns"), std::string::npos) << text;
  EXPECT_NE(text.find("holding 4194304 packets (0.88 GiB"), std::string::npos) << text;
  EXPECT_NE(text.find("the machine had 8.00 GiB available"), std::string::npos) << text;
}

TEST(PacketBudget, RunningOutOfTheWorkloadsCapPointsAtTimeouts) {
  StatusOr<PacketBudget> b =
      PlanPacketBudget(K64(), 1000, kBytesPerPacket, 20 * kGiB, false, kMinPool);
  ASSERT_TRUE(b.ok());
  const std::string text = OutOfPacketsMessage(*b, b->pool_cap, Time::FromNs(5), 12);
  EXPECT_NE(text.find("twice every packet of the workload"), std::string::npos) << text;
  EXPECT_NE(text.find("12 retransmission timeouts"), std::string::npos) << text;
}

}  // namespace
}  // namespace fe::control
