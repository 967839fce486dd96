// Hierarchical collectives whose across-group phase is a double binary tree or halving-doubling
// (collective.across_algorithm): each rank's bytes and messages against the closed forms.
#include <gtest/gtest.h>

#include <cstdint>
#include <tuple>
#include <vector>

#include "collective_test_util.h"
#include "traffic/collective/collective.h"

namespace fe {
namespace {

using namespace collective_test;  // NOLINT: the shared fixtures of these tests

// Hierarchical AllReduce over G = 4 groups of L = 2 (hosts 0-1, 2-3, 4-5, 6-7) with the across
// phase a double binary tree. Inside, each rank sends 2(L-1)/L x S by ring (ReduceScatter then
// AllGather). Across, set l (local rank l of every group) AllReduces its slice S/L in two trees
// of S/2L each; NCCL's trees over 4 ranks, derived by hand from ncclGetBtree, are
// 0 <- 2 <- {1, 3} and its mirror 3 <- 1 <- {2, 0}. Each tree edge carries S/2L up and S/2L
// down, so a group index sends (and receives) S/2L per edge it touches in both trees: groups 0
// and 3 touch 2 edges (S/L), groups 1 and 2 touch 4 (2S/L). Messages: per set, tree and chunk,
// one up and one down per edge, 2(G-1); inside, a ring step of one slice per rank and chunk.
TEST(CollectiveTest, HierarchicalTreeAcrossSendsTheTreeClosedForm) {
  const uint32_t n = 8, l = 2, g = 4;
  const uint64_t s = 8 * kMiB, chunk = kMiB / 2;
  CollectiveSpec spec =
      Spec(CollectiveKind::kAllReduce, CollectiveAlgorithm::kHierarchical, n, s, 1, chunk);
  for (uint32_t r = 0; r < n; ++r) spec.group_of_rank.push_back(r / l);
  spec.across = CollectiveAlgorithm::kDoubleBinaryTree;
  const Workload w = Build(spec);
  std::vector<uint64_t> inside_sent(n), across_sent(n), across_received(n), across_messages(n);
  for (const Flow& f : w.flows) {
    if (f.src_host / l == f.dst_host / l) {
      inside_sent[f.src_host] += f.size_bytes;
      continue;
    }
    EXPECT_EQ(f.src_host % l, f.dst_host % l) << "across sets pair equal local ranks";
    across_sent[f.src_host] += f.size_bytes;
    across_received[f.dst_host] += f.size_bytes;
    ++across_messages[f.src_host];
  }
  const uint64_t edges_of_group[g] = {2, 4, 4, 2};
  const uint64_t edge_bytes = s / (2 * l), chunks_per_edge = edge_bytes / chunk;
  for (uint32_t r = 0; r < n; ++r) {
    EXPECT_EQ(inside_sent[r], 2 * (l - 1) * s / l) << "rank " << r;
    EXPECT_EQ(across_sent[r], edges_of_group[r / l] * edge_bytes) << "rank " << r;
    EXPECT_EQ(across_received[r], across_sent[r]) << "rank " << r;
    EXPECT_EQ(across_messages[r], edges_of_group[r / l] * chunks_per_edge) << "rank " << r;
  }
  const uint64_t across_total = l * 2 * chunks_per_edge * 2 * (g - 1);
  const uint64_t inside_total = 2 * g * (l - 1) * l * (s / l / chunk);
  EXPECT_EQ(w.size(), across_total + inside_total);
}

// Halving-doubling across G = 4 groups of L = 3: each rank sends its kind's share of the slice
// across, as an operation of G ranks would: (G-1)/G of S/L for ReduceScatter and AllGather (whose
// slice is a rank's block of the gathered S/L), twice that for AllReduce; inside, a ring's
// (L-1)/L of S per ReduceScatter or AllGather phase.
TEST(CollectiveTest, HierarchicalHalvingDoublingAcrossSendsItsShare) {
  const uint32_t n = 12, l = 3, g = 4;
  const uint64_t s = 12 * kMiB;
  for (const auto& [kind, across_phases, inside_phases] :
       {std::tuple{CollectiveKind::kAllReduce, 2u, 2u},
        std::tuple{CollectiveKind::kReduceScatter, 1u, 1u},
        std::tuple{CollectiveKind::kAllGather, 1u, 1u}}) {
    SCOPED_TRACE(CollectiveKindName(kind));
    CollectiveSpec spec = Spec(kind, CollectiveAlgorithm::kHierarchical, n, s);
    for (uint32_t r = 0; r < n; ++r) spec.group_of_rank.push_back(r / l);
    spec.across = CollectiveAlgorithm::kHalvingDoubling;
    const Workload w = Build(spec);
    std::vector<uint64_t> inside(n), across(n);
    for (const Flow& f : w.flows) {
      (f.src_host / l == f.dst_host / l ? inside : across)[f.src_host] += f.size_bytes;
    }
    for (uint32_t r = 0; r < n; ++r) {
      EXPECT_EQ(across[r], across_phases * (g - 1) * (s / l) / g) << "rank " << r;
      EXPECT_EQ(inside[r], inside_phases * (l - 1) * s / l) << "rank " << r;
    }
  }
}

// Broadcast with a tree across G = 4 groups of L = 2, root rank 3 (group 1, local rank 1): only
// local rank 1 of each group crosses, and the root's half-buffers reach every group: each group
// but the root's receives S across (S/2 per tree), then chains it to its other rank.
TEST(CollectiveTest, HierarchicalTreeAcrossBroadcastsFromTheRoot) {
  const uint32_t n = 8, l = 2;
  const uint64_t s = 4 * kMiB;
  CollectiveSpec spec = Spec(CollectiveKind::kBroadcast, CollectiveAlgorithm::kHierarchical, n, s);
  for (uint32_t r = 0; r < n; ++r) spec.group_of_rank.push_back(r / l);
  spec.across = CollectiveAlgorithm::kDoubleBinaryTree;
  spec.root = 3;
  const Workload w = Build(spec);
  std::vector<uint64_t> received(n);
  for (const Flow& f : w.flows) {
    if (f.src_host / l != f.dst_host / l) {
      EXPECT_EQ(f.src_host % l, 1u);
      EXPECT_EQ(f.dst_host % l, 1u);
    }
    received[f.dst_host] += f.size_bytes;
  }
  for (uint32_t r = 0; r < n; ++r) EXPECT_EQ(received[r], r == spec.root ? 0 : s) << r;
}

}  // namespace
}  // namespace fe
