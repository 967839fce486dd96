// Locality groups and meeting levels, counted from the builders' documented layouts.
#include "topology/locality.h"

#include <gtest/gtest.h>

#include "build_test_util.h"

namespace fe::topo {
namespace {

// A rail-optimised fabric of 4 servers x 4 accelerators, 2 servers per rail group: NIC i of
// server s attaches to rail switch i of the group (endpoint = s x 4 + i).
constexpr char kRails[] = R"(
  link_class { name: "l" rate_gbps: 400 delay_ns: 100 }
  rail_optimized { servers: 4 accelerators_per_server: 4 servers_per_rail_group: 2 spines: 2
                   rail_up_links: 2 host_link_class: "l" uplink_class: "l" })";

// Without scale-up domains a host's group is its rail switch: endpoints i and 4 + i of the
// first group share one; the second group's rail switches are other groups.
TEST(LocalityTest, WithoutDomainsTheGroupIsTheSwitchTheNicAttachesTo) {
  StatusOr<Graph> g = BuildText(kRails);
  ASSERT_TRUE(g.ok()) << g.status().message();
  const std::vector<uint32_t> groups = LocalityGroups(*g);
  ASSERT_EQ(groups.size(), 16u);
  for (uint32_t h = 0; h < 16; ++h) {
    const uint32_t rail = h % 4, rail_group = h / 8;
    EXPECT_EQ(groups[h], rail_group * 4 + rail) << h;
  }
  EXPECT_EQ(MeetingLevel(*g, 0, 4), 1u);  // same rail switch
  EXPECT_EQ(MeetingLevel(*g, 0, 1), 2u);  // same rail group (pod), other rail
  EXPECT_EQ(MeetingLevel(*g, 0, 8), 3u);  // other rail group
}

// With a scale-up domain per server, the server is the group and its accelerators meet at 0.
TEST(LocalityTest, ScaleUpDomainsAreTheGroups) {
  StatusOr<Graph> g =
      BuildText(std::string(kRails) + R"( scale_up { domain_size: 4 link_class: "l" })");
  ASSERT_TRUE(g.ok()) << g.status().message();
  const std::vector<uint32_t> groups = LocalityGroups(*g);
  for (uint32_t h = 0; h < 16; ++h) EXPECT_EQ(groups[h], h / 4) << h;
  EXPECT_EQ(MeetingLevel(*g, 0, 3), 0u);
  EXPECT_EQ(MeetingLevel(*g, 0, 4), 1u);
}

}  // namespace
}  // namespace fe::topo
