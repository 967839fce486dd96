#include "congestion/dscp_map.h"

#include <gtest/gtest.h>

namespace fe::cong {
namespace {

TEST(DscpMapTest, DefaultsPutRoceOnThreeAndCnpOnSixAndAllElseOnZero) {
  const StatusOr<DscpMapConfig> config = Compile(DscpMapParams{});
  ASSERT_TRUE(config.ok()) << config.status().message();
  for (int dscp = 0; dscp < kNumDscp; ++dscp) {
    const int want = dscp == 26 ? 3 : dscp == 48 ? 6 : 0;
    EXPECT_EQ(PriorityOf(config.value(), static_cast<uint8_t>(dscp)), want) << "dscp " << dscp;
  }
}

TEST(DscpMapTest, UserTableReplacesTheDefaults) {
  DscpMapParams params;
  params.default_priority = 1;
  params.entries = {{.dscp = 46, .priority = 5}, {.dscp = 0, .priority = 7}};
  const StatusOr<DscpMapConfig> config = Compile(params);
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_EQ(PriorityOf(config.value(), 46), 5);
  EXPECT_EQ(PriorityOf(config.value(), 0), 7);
  EXPECT_EQ(PriorityOf(config.value(), 26), 1);  // no longer the RoCE default
  EXPECT_EQ(PriorityOf(config.value(), 63), 1);
}

TEST(DscpMapTest, RefusesOutOfRangeAndDuplicateEntriesNamingTheField) {
  DscpMapParams params;
  params.entries = {{.dscp = 64, .priority = 3}};
  EXPECT_EQ(Compile(params).status().message(), "entries[0].dscp (64) outside [0, 63]");
  params.entries = {{.dscp = 10, .priority = 1}, {.dscp = 26, .priority = 8}};
  EXPECT_EQ(Compile(params).status().message(), "entries[1].priority (8) outside [0, 7]");
  params.entries = {{.dscp = 26, .priority = 3}, {.dscp = 26, .priority = 4}};
  EXPECT_EQ(Compile(params).status().message(), "entries[1].dscp (26) is mapped twice");
  params = DscpMapParams{};
  params.default_priority = -1;
  EXPECT_EQ(Compile(params).status().message(), "default_priority (-1) outside [0, 7]");
}

}  // namespace
}  // namespace fe::cong
