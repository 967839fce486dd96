// The collective section: its sweep and iterations become chained operations on the placed
// ranks, and every bad field is refused with file:line and its path.
#include <gtest/gtest.h>

#include <string>

#include "control/scenario/collective_section.h"
#include "control/scenario/scenario_loader.h"
#include "topology/build.h"

namespace fe::control {
namespace {

// A two-tier Clos of 4 leaves x 4 hosts (leaf i: hosts 4i..4i+3), 2:1 oversubscribed.
constexpr char kClos[] = R"(topology {
  link_class { name: "l" rate_gbps: 100 delay_ns: 1000 }
  clos { host_link_class: "l"
         tier { switches: 4 down_links: 4 up_links: 2 uplink_class: "l" }
         tier { switches: 2 down_links: 4 } }
}
)";

std::string ErrorsOf(const std::string& collective) {
  const StatusOr<fabric_emu::Scenario> s = LoadScenarioText(
      std::string(kClos) + "traffic {\n collective {\n" + collective + "\n }\n}\n", "c.textproto");
  return s.ok() ? "" : s.status().message();
}

// The section with `fields` on kClos, as a run lays it out (placement seed 1).
StatusOr<Workload> SectionWorkload(const std::string& fields) {
  const StatusOr<fabric_emu::Scenario> s = LoadScenarioText(
      std::string(kClos) + "traffic { collective { " + fields + " } }\n", "c.textproto");
  if (!s.ok()) return s.status();
  StatusOr<topo::Graph> g = topo::BuildTopology(s->topology(), ".");
  if (!g.ok()) return g.status();
  return CollectiveWorkload(s->traffic(0).collective(), *g, 1, ".");
}

// Sizes 1, 4, 16 and 64 KiB (a sweep by 4), 3 iterations each: 12 operations in order, each
// gated by the one before at every rank.
TEST(CollectiveSectionTest, SweepAndIterationsBecomeChainedOperations) {
  StatusOr<Workload> w = SectionWorkload(
      "min_bytes: 1024 max_bytes: 65536 step_factor: 4 iterations: 3 placement: TOPOLOGY_AWARE "
      "host: [12, 1, 6, 11, 0, 7, 5, 10]");
  ASSERT_TRUE(w.ok()) << w.status().message();
  ASSERT_EQ(w->ops.size(), 12u);
  for (uint32_t i = 0; i < 12; ++i) {
    EXPECT_EQ(w->ops[i].size_bytes, 1024u << (2 * (i / 3)));
    EXPECT_EQ(w->ops[i].ranks, 8u);
  }
  // Topology-aware: hosts of leaf 0 (0, 1), leaf 1 (5, 6, 7), leaf 2 (10, 11), leaf 3 (12): a
  // ring of 8 crosses leaves 4 times.
  uint32_t crossings = 0;
  for (uint32_t id = 0; id < w->size() && w->op_of[id] == 0; ++id) {
    const Flow& f = w->flows[id];
    crossings += f.src_host / 4 != f.dst_host / 4 ? 1 : 0;
  }
  EXPECT_EQ(crossings, 4u * 2 * 7);  // 4 edges x 2(N-1) steps
  // Every operation after the first waits, at its first messages, for the one before.
  for (uint32_t id = 0; id < w->size(); ++id) {
    const uint32_t op = w->op_of[id];
    for (const uint32_t d : w->dependencies(id))
      EXPECT_TRUE(w->op_of[d] == op || w->op_of[d] + 1 == op);
  }
  EXPECT_TRUE(CheckDependencies(*w).ok());
}

// Hierarchical over the 4 leaves (groups of L = 4) with a tree across: each across set (one host
// of every leaf) runs a double binary tree of G = 4, 2 trees x 2(G-1) messages (up and down per
// edge) for its one chunk, 48 crossing leaves in all where a ring across would send
// 2(G-1) steps x G = 24 per set, 96 in all.
TEST(CollectiveSectionTest, AcrossAlgorithmLaysOutThePhaseAcrossGroups) {
  StatusOr<Workload> w = SectionWorkload(
      "algorithm: HIERARCHICAL across_algorithm: DOUBLE_BINARY_TREE size_bytes: 16384");
  ASSERT_TRUE(w.ok()) << w.status().message();
  uint32_t crossings = 0;
  for (const Flow& f : w->flows) crossings += f.src_host / 4 != f.dst_host / 4 ? 1 : 0;
  EXPECT_EQ(crossings, 4u * 2 * 2 * 3);
}

TEST(CollectiveSectionTest, BadFieldsAreRefusedWithTheirLineAndPath) {
  const struct {
    std::string fields;
    std::string want;
  } cases[] = {
      {"op: ALL_REDUCE algorithm: DIRECT size_bytes: 1024",
       "c.textproto:9: traffic[0].collective.algorithm: all_reduce has no direct"},
      {"op: ALL_TO_ALL algorithm: RING size_bytes: 1024",
       "c.textproto:9: traffic[0].collective.algorithm: all_to_all has no ring"},
      {"size_bytes: 1024 host: 1 host: 2 host: 1",
       "traffic[0].collective.host[2]: host 1 is listed twice"},
      {"size_bytes: 1024 host: 16", "traffic[0].collective.host[0]: must be a host index"},
      {"size_bytes: 1024 ranks: 17", "traffic[0].collective.ranks: must be in [2, 16]"},
      {"size_bytes: 0", "traffic[0].collective.size_bytes[0]: must be in [1, "},
      {"size_bytes: 1024 min_bytes: 1 max_bytes: 2",
       "traffic[0].collective.min_bytes: give the sizes either"},
      {"min_bytes: 4096 max_bytes: 1024", "traffic[0].collective.max_bytes: must be in [4096, "},
      {"", "traffic[0].collective.min_bytes: required"},
      {"size_bytes: 1024 channels: 0", "traffic[0].collective.channels: must be in [1, 64]"},
      {"size_bytes: 1024 chunk_bytes: 0", "traffic[0].collective.chunk_bytes: must be in [1, "},
      {"op: BROADCAST size_bytes: 1024 ranks: 4 root: 4",
       "traffic[0].collective.root: must be in [0, 3]"},
      {"size_bytes: 8", "traffic[0].collective: size_bytes 8 is below the 16 bytes"},
      // Leaf 0 holds 2 of the hosts, leaf 1 one: groups of unequal size.
      {"algorithm: HIERARCHICAL size_bytes: 1024 host: [0, 1, 4]",
       "traffic[0].collective: hierarchical needs locality groups of equal size"},
      {"size_bytes: 1048576 iterations: 1000000 chunk_bytes: 1",
       "traffic[0].collective: makes at least"},
      {"algorithm: RING across_algorithm: DOUBLE_BINARY_TREE size_bytes: 1024",
       "c.textproto:9: traffic[0].collective.across_algorithm: only algorithm: HIERARCHICAL"},
      {"op: REDUCE_SCATTER algorithm: HIERARCHICAL across_algorithm: DOUBLE_BINARY_TREE "
       "size_bytes: 1024",
       "c.textproto:9: traffic[0].collective.across_algorithm: hierarchical reduce_scatter has no "
       "double_binary_tree phase across groups"},
      {"algorithm: HIERARCHICAL across_algorithm: DIRECT size_bytes: 1024",
       "traffic[0].collective.across_algorithm: hierarchical all_reduce has no direct"},
  };
  for (const auto& c : cases) {
    const std::string errors = ErrorsOf(c.fields);
    EXPECT_NE(errors.find(c.want), std::string::npos) << c.fields << "\ngot: " << errors;
  }
}

}  // namespace
}  // namespace fe::control
