// Rank placement on a two-tier Clos of 4 leaves x 4 hosts whose hosts a scheduler handed out
// scattered: how many ring neighbours meet only above the leaves, counted from the graph.
#include "traffic/placement.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "topology/build.h"
#include "topology/locality.h"

namespace fe {
namespace {

constexpr uint32_t kLeaves = 4, kHostsPerLeaf = 4, kHosts = kLeaves * kHostsPerLeaf;

topo::Graph Clos() {
  fabric_emu::Topology t;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(
      R"(link_class { name: "l" rate_gbps: 100 delay_ns: 1000 }
         clos { host_link_class: "l"
                tier { switches: 4 down_links: 4 up_links: 2 uplink_class: "l" }
                tier { switches: 2 down_links: 4 } })",
      &t));
  StatusOr<topo::Graph> g = topo::BuildTopology(t, ".");
  EXPECT_TRUE(g.ok()) << g.status().message();
  return std::move(g).value();
}

// Ring edges (the wrap-around included) whose ends meet above the leaves.
uint32_t CrossingEdges(const topo::Graph& g, const std::vector<uint32_t>& ranks) {
  uint32_t crossing = 0;
  for (size_t i = 0; i < ranks.size(); ++i) {
    crossing += topo::MeetingLevel(g, ranks[i], ranks[(i + 1) % ranks.size()]) >= 2 ? 1 : 0;
  }
  return crossing;
}

// A scattered hand-out: host i x 5 mod 16 (5 is coprime with 16), so consecutive hosts sit on
// different leaves.
std::vector<uint32_t> Scattered() {
  std::vector<uint32_t> hosts(kHosts);
  for (uint32_t i = 0; i < kHosts; ++i) hosts[i] = i * 5 % kHosts;
  return hosts;
}

// The fewest crossings a ring through 4 leaves can make is 4 (it must leave each leaf once);
// topology-aware reaches it. Linear keeps the scattered order: every edge crosses. Random
// crosses on average 16 x 12/15 = 12.8 edges; any seed gives more than 4 here.
TEST(PlacementTest, TopologyAwareRingsCrossTheFewestTierBoundaries) {
  const topo::Graph g = Clos();
  const std::vector<uint32_t> groups = topo::LocalityGroups(g);
  const std::vector<uint32_t> scattered = Scattered();
  const auto aware = PlaceRanks(Placement::kTopologyAware, scattered, kHosts, groups, 1);
  const auto linear = PlaceRanks(Placement::kLinear, scattered, kHosts, groups, 1);
  EXPECT_EQ(CrossingEdges(g, aware), kLeaves);
  EXPECT_EQ(CrossingEdges(g, linear), kHosts);
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const auto random = PlaceRanks(Placement::kRandom, scattered, kHosts, groups, seed);
    EXPECT_GT(CrossingEdges(g, random), kLeaves) << seed;
    EXPECT_EQ(std::set<uint32_t>(random.begin(), random.end()).size(), kHosts);
  }
}

// A job of 6 ranks fills one leaf and takes 2 hosts of the next, the lowest ones.
TEST(PlacementTest, TopologyAwarePacksAJobIntoFewGroups) {
  const topo::Graph g = Clos();
  const auto ranks =
      PlaceRanks(Placement::kTopologyAware, Scattered(), 6, topo::LocalityGroups(g), 1);
  EXPECT_EQ(ranks, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5}));
}

TEST(PlacementTest, RandomIsDeterministicForASeed) {
  const std::vector<uint32_t> groups(kHosts, 0);
  std::vector<uint32_t> all(kHosts);
  std::iota(all.begin(), all.end(), 0u);
  EXPECT_EQ(PlaceRanks(Placement::kRandom, all, 8, groups, 7),
            PlaceRanks(Placement::kRandom, all, 8, groups, 7));
  EXPECT_NE(PlaceRanks(Placement::kRandom, all, 8, groups, 7),
            PlaceRanks(Placement::kRandom, all, 8, groups, 8));
}

}  // namespace
}  // namespace fe
