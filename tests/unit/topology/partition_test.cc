// PartitionNodes against the fat-tree's documented layout (topology/fat_tree.h): each pod holds
// k^2/4 hosts (1 port), k/2 edge and k/2 aggregation switches (k ports), (k/2)^2 core switches
// hold k ports each.
#include "topology/partition.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "topology/fat_tree.h"

namespace fe::topo {
namespace {

TEST(PartitionTest, FatTreeSplitsIntoWholePodsOfEqualPorts) {
  constexpr int k = 16;
  StatusOr<Graph> g = BuildFatTree(FatTreeParams{.k = k});
  ASSERT_TRUE(g.ok()) << g.status().message();
  for (const uint32_t parts : {2u, 4u}) {
    SCOPED_TRACE(parts);
    const std::vector<uint32_t> part = PartitionNodes(*g, parts);
    ASSERT_EQ(part.size(), g->nodes().size());
    std::vector<std::set<uint32_t>> parts_of_pod(k);
    std::vector<uint64_t> ports(parts, 0);
    for (NodeId n = 0; n < part.size(); ++n) {
      ASSERT_LT(part[n], parts);
      ports[part[n]] += g->node(n).links.size();
      if (g->node(n).pod >= 0) parts_of_pod[g->node(n).pod].insert(part[n]);
    }
    for (int p = 0; p < k; ++p) EXPECT_EQ(parts_of_pod[p].size(), 1u) << "pod " << p;
    // Ports in all: k pods x (k^2/4 + k x k) + (k/2)^2 x k = 16 x 320 + 64 x 16 = 6144, which
    // whole pods (320) and core switches (16) split exactly into equal parts.
    for (uint32_t q = 0; q < parts; ++q) EXPECT_EQ(ports[q], 6144u / parts) << "part " << q;
  }
}

TEST(PartitionTest, OnePartHoldsEverything) {
  StatusOr<Graph> g = BuildFatTree(FatTreeParams{.k = 4});
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(PartitionNodes(*g, 1), std::vector<uint32_t>(g->nodes().size(), 0));
}

}  // namespace
}  // namespace fe::topo
