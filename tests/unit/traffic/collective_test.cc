// The collective generators against the closed forms of their algorithms: bytes and messages per
// rank, who waits for whom, and refusals. Sizes are chosen divisible by every split so that the
// closed forms hold to the byte.
#include "traffic/collective/collective.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <span>
#include <utility>
#include <vector>

#include "collective_test_util.h"

namespace fe {
namespace {

using namespace collective_test;  // NOLINT: the shared fixtures of these tests

// Every message `id` waits for, directly or not.
std::set<uint32_t> Ancestors(const Workload& w, uint32_t id) {
  std::set<uint32_t> seen;
  std::vector<uint32_t> todo{id};
  while (!todo.empty()) {
    const uint32_t m = todo.back();
    todo.pop_back();
    for (const uint32_t d : w.dependencies(m)) {
      if (seen.insert(d).second) todo.push_back(d);
    }
  }
  return seen;
}

// Ring AllReduce: 2(N-1) steps of a slice S/N each, so 2(N-1)/N x S per rank; with 2 channels
// and chunks of 256 KiB, each step is 2 channels x (S/N/2)/256 KiB chunks per rank.
TEST(CollectiveTest, RingAllReduceSendsTwiceNMinusOneOverNOfTheBuffer) {
  const uint32_t n = 8;
  const uint64_t s = 8 * kMiB;
  const Workload w =
      Build(Spec(CollectiveKind::kAllReduce, CollectiveAlgorithm::kRing, n, s, 2, 256 * 1024));
  const PerRank c = Count(w, n);
  const uint64_t chunks = s / n / 2 / (256 * 1024);
  for (uint32_t r = 0; r < n; ++r) {
    EXPECT_EQ(c.sent_bytes[r], 2 * (n - 1) * s / n);
    EXPECT_EQ(c.received_bytes[r], 2 * (n - 1) * s / n);
    EXPECT_EQ(c.sent_messages[r], 2 * (n - 1) * 2 * chunks);
  }
  for (const Flow& f : w.flows) EXPECT_EQ(f.dst_host, (f.src_host + 1) % n);
  ASSERT_EQ(w.ops.size(), 1u);
  EXPECT_EQ(w.ops[0].ranks, n);
  EXPECT_EQ(w.ops[0].channels, 2u);
}

// Chunk c of step k waits for chunk c of step k - 1 arriving from the left neighbour and (from
// step 2) for the sender's own chunk c of step k - 2; the first step waits for nothing (no gate).
TEST(CollectiveTest, RingStepsWaitForTheSameChunkOfThePreviousStep) {
  const uint32_t n = 4;
  const uint32_t chunks = 2;  // of the 1 MiB slice
  const Workload w =
      Build(Spec(CollectiveKind::kAllReduce, CollectiveAlgorithm::kRing, n, 4 * kMiB, 1, kMiB / 2));
  const uint32_t per_step = n * chunks;
  ASSERT_EQ(w.size(), 2 * (n - 1) * per_step);
  for (uint32_t i = 0; i < w.size(); ++i) {
    const uint32_t step = i / per_step;
    const uint32_t me = w.flows[i].src_host;
    std::set<std::pair<uint32_t, uint32_t>> want;  // (sender, step) of each dependency
    if (step >= 1) want.insert({(me + n - 1) % n, step - 1});
    if (step >= 2) want.insert({me, step - 2});
    std::set<std::pair<uint32_t, uint32_t>> got;
    for (const uint32_t d : w.dependencies(i)) {
      EXPECT_EQ(w.flows[d].size_bytes, w.flows[i].size_bytes);  // the same chunk
      EXPECT_EQ(d % per_step / n, i % per_step / n);
      got.insert({w.flows[d].src_host, d / per_step});
    }
    EXPECT_EQ(got, want) << "message " << i;
  }
}

TEST(CollectiveTest, RingReduceScatterAndAllGatherSendNMinusOneOverN) {
  const uint32_t n = 6;
  const uint64_t s = 6 * kMiB;
  for (const CollectiveKind kind : {CollectiveKind::kReduceScatter, CollectiveKind::kAllGather}) {
    const PerRank c = Count(Build(Spec(kind, CollectiveAlgorithm::kRing, n, s)), n);
    for (uint32_t r = 0; r < n; ++r) EXPECT_EQ(c.sent_bytes[r], (n - 1) * s / n);
  }
}

// Powers of two: log2 N rounds each way, (N-1)/N x S per rank each way.
TEST(CollectiveTest, HalvingDoublingAllReduceOnAPowerOfTwo) {
  const uint32_t n = 8;
  const uint64_t s = 8 * kMiB;
  const Workload w = Build(
      Spec(CollectiveKind::kAllReduce, CollectiveAlgorithm::kHalvingDoubling, n, s, 1, 4 * kMiB));
  const PerRank c = Count(w, n);
  for (uint32_t r = 0; r < n; ++r) {
    EXPECT_EQ(c.sent_bytes[r], 2 * (n - 1) * s / n);
    EXPECT_EQ(c.sent_messages[r], 2 * 3u);  // one piece (S/N = 1 MiB <= chunk)
  }
  for (const Flow& f : w.flows) EXPECT_EQ(std::popcount(f.src_host ^ f.dst_host), 1);
}

// N = 6 folds into 4: ranks 0 and 2 hand the whole buffer to 1 and 3 and get it back; ranks 1
// and 3 stand for two blocks (S/3), 4 and 5 for one (S/6). In the reduce-scatter a participant
// sends what it does not keep (S minus its blocks) and receives, from partners at distance 2 then
// 1, the ranges it keeps: S for rank 1 (2S/3 then S/3), S/2 for rank 4 (S/3 then S/6); the
// all-gather runs the same ranges the other way.
TEST(CollectiveTest, HalvingDoublingFoldsOtherRankCounts) {
  const uint32_t n = 6;
  const uint64_t s = 6 * kMiB;
  const PerRank ar = Count(Build(Spec(CollectiveKind::kAllReduce,
                                      CollectiveAlgorithm::kHalvingDoubling, n, s, 1, 8 * kMiB)),
                           n);
  const uint64_t folding = (s - s / 3) + s + s;  // and the result back to its partner
  const uint64_t plain = (s - s / 6) + s / 2;
  const std::vector<uint64_t> expected = {s, folding, s, folding, plain, plain};
  EXPECT_EQ(ar.sent_bytes, expected);
  EXPECT_EQ(ar.received_bytes, expected);
  const PerRank rs = Count(Build(Spec(CollectiveKind::kReduceScatter,
                                      CollectiveAlgorithm::kHalvingDoubling, n, s, 1, 8 * kMiB)),
                           n);
  EXPECT_EQ(rs.sent_bytes, (std::vector<uint64_t>{s, s - s / 3 + s / 6, s, s - s / 3 + s / 6,
                                                  s - s / 6, s - s / 6}));
  const PerRank ag = Count(Build(Spec(CollectiveKind::kAllGather,
                                      CollectiveAlgorithm::kHalvingDoubling, n, s, 1, 8 * kMiB)),
                           n);
  // Every rank gets every block but its own, folded or not.
  EXPECT_EQ(ag.received_bytes, std::vector<uint64_t>(n, s - s / 6));
}

// Each tree carries S/2 up and down: over both, 2(N-1) x S/2 x 2 = 2(N-1)S in all, and (even N)
// no rank is inner in both trees, so none sends more than S/2 x (1 + 2) + S/2 (leaf in the other).
TEST(CollectiveTest, DoubleTreeAllReduceMovesEachHalfUpAndDown) {
  for (const uint32_t n : {2u, 5u, 8u, 16u}) {
    const uint64_t s = 16 * kMiB;
    const Workload w = Build(Spec(CollectiveKind::kAllReduce,
                                  CollectiveAlgorithm::kDoubleBinaryTree, n, s, 1, 16 * kMiB));
    const PerRank c = Count(w, n);
    EXPECT_EQ(std::accumulate(c.sent_bytes.begin(), c.sent_bytes.end(), uint64_t{0}),
              2 * (n - 1) * s)
        << n;
    if (n % 2 == 0) {
      for (uint32_t r = 0; r < n; ++r) EXPECT_LE(c.sent_bytes[r], 2 * s) << n << " rank " << r;
    }
  }
}

// Every rank but the root receives the buffer once, whatever the algorithm.
TEST(CollectiveTest, BroadcastDeliversTheBufferOnceToEveryOtherRank) {
  const uint32_t n = 7;
  const uint64_t s = 4 * kMiB;
  for (const CollectiveAlgorithm a :
       {CollectiveAlgorithm::kRing, CollectiveAlgorithm::kDoubleBinaryTree}) {
    CollectiveSpec spec = Spec(CollectiveKind::kBroadcast, a, n, s, 2, kMiB);
    spec.root = 3;
    const PerRank c = Count(Build(spec), n);
    for (uint32_t r = 0; r < n; ++r) EXPECT_EQ(c.received_bytes[r], r == 3 ? 0 : s);
  }
}

// A chain of N - 1 hops from the root: chunk k at hop p waits for chunk k to arrive from hop
// p - 1 and for chunk k - 1 of hop p to arrive at the next rank, so the root sends its chunks in
// turn rather than all at once.
TEST(CollectiveTest, RingBroadcastHopsSendTheirChunksInTurn) {
  const uint32_t n = 5, root = 2, chunks = 4;
  CollectiveSpec spec =
      Spec(CollectiveKind::kBroadcast, CollectiveAlgorithm::kRing, n, 2 * kMiB, 1, kMiB / 2);
  spec.root = root;
  const Workload w = Build(spec);
  ASSERT_EQ(w.size(), (n - 1) * chunks);
  const auto hop = [&](uint32_t id) { return (w.flows[id].src_host + n - root) % n; };
  for (uint32_t i = 0; i < w.size(); ++i) {
    const uint32_t k = i / (n - 1);
    ASSERT_EQ(hop(i), i % (n - 1));
    std::set<std::pair<uint32_t, uint32_t>> want;  // (hop, chunk) of each dependency
    if (hop(i) > 0) want.insert({hop(i) - 1, k});
    if (k > 0) want.insert({hop(i), k - 1});
    std::set<std::pair<uint32_t, uint32_t>> got;
    for (const uint32_t d : w.dependencies(i)) got.insert({hop(d), d / (n - 1)});
    EXPECT_EQ(got, want) << "message " << i;
  }
}

// Every edge of a tree sends its chunks in turn: a message waits for the one its sender sent to
// the same rank before it in the same tree. The trees carry as many messages each (S/2 in the
// same number of chunks), tree 0's first.
TEST(CollectiveTest, DoubleTreeEdgesSendTheirChunksInTurn) {
  const uint32_t n = 8;
  for (const CollectiveKind kind : {CollectiveKind::kAllReduce, CollectiveKind::kBroadcast}) {
    const Workload w =
        Build(Spec(kind, CollectiveAlgorithm::kDoubleBinaryTree, n, 4 * kMiB, 1, kMiB / 2));
    const auto per_tree = static_cast<uint32_t>(w.size() / 2);
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> last;  // edge -> its latest message
    for (uint32_t i = 0; i < w.size(); ++i) {
      if (i == per_tree) last.clear();
      const std::pair<uint32_t, uint32_t> edge{w.flows[i].src_host, w.flows[i].dst_host};
      const auto before = last.find(edge);
      const std::span<const uint32_t> deps = w.dependencies(i);
      if (before != last.end()) {
        EXPECT_NE(std::find(deps.begin(), deps.end(), before->second), deps.end())
            << CollectiveKindName(kind) << " message " << i;
      }
      last[edge] = i;
    }
    // Tree 1's edges: each way for AllReduce.
    EXPECT_EQ(last.size(), kind == CollectiveKind::kAllReduce ? 2 * (n - 1) : n - 1);
  }
}

TEST(CollectiveTest, AllToAllSendsABlockToEveryOtherRank) {
  const uint32_t n = 5;
  const uint64_t s = 5 * kMiB;
  const Workload w =
      Build(Spec(CollectiveKind::kAllToAll, CollectiveAlgorithm::kDirect, n, s, 2, kMiB / 4));
  std::vector<std::vector<uint64_t>> pair(n, std::vector<uint64_t>(n));
  for (const Flow& f : w.flows) pair[f.src_host][f.dst_host] += f.size_bytes;
  for (uint32_t a = 0; a < n; ++a) {
    for (uint32_t b = 0; b < n; ++b) EXPECT_EQ(pair[a][b], a == b ? 0 : s / n);
  }
  EXPECT_EQ(w.size(), n * (n - 1) * 2 * 2u);  // 2 channels of 512 KiB per pair: 2 chunks each
}

// Groups of 4 (hosts 0-3, 4-7, 8-11): every rank still sends 2(N-1)/N x S, but only
// 2(G-1)/N x S of it leaves its group.
TEST(CollectiveTest, HierarchicalAllReduceKeepsMostBytesInsideGroups) {
  const uint32_t n = 12, l = 4, g = 3;
  const uint64_t s = 12 * kMiB;
  CollectiveSpec spec = Spec(CollectiveKind::kAllReduce, CollectiveAlgorithm::kHierarchical, n, s);
  for (uint32_t r = 0; r < n; ++r) spec.group_of_rank.push_back(10 + r / l);
  const Workload w = Build(spec);
  std::vector<uint64_t> sent(n), across(n);
  for (const Flow& f : w.flows) {
    sent[f.src_host] += f.size_bytes;
    if (f.src_host / l != f.dst_host / l) across[f.src_host] += f.size_bytes;
  }
  for (uint32_t r = 0; r < n; ++r) {
    EXPECT_EQ(sent[r], 2 * (n - 1) * s / n);
    EXPECT_EQ(across[r], 2 * (g - 1) * s / n);
  }
}

// The result at every rank depends on what every other rank sent.
TEST(CollectiveTest, EveryRanksResultFollowsEveryOtherRank) {
  const uint32_t n = 6;
  for (const CollectiveAlgorithm a :
       {CollectiveAlgorithm::kRing, CollectiveAlgorithm::kDoubleBinaryTree,
        CollectiveAlgorithm::kHalvingDoubling}) {
    Workload w;
    auto gates = AppendCollective(Spec(CollectiveKind::kAllReduce, a, n, 6 * kMiB), {},
                                  Time::Zero(), Time::Zero(), 0, kNoIndex, &w);
    ASSERT_TRUE(gates.ok());
    for (uint32_t r = 0; r < n; ++r) {
      std::set<uint32_t> senders;
      for (const uint32_t m : (*gates)[r]) {
        senders.insert(w.flows[m].src_host);
        for (const uint32_t d : Ancestors(w, m)) senders.insert(w.flows[d].src_host);
      }
      EXPECT_EQ(senders.size(), n) << CollectiveAlgorithmName(a) << " rank " << r;
    }
  }
}

// Two operations chained by their gates, with a compute delay: every message of the second that
// rank r sends comes after everything rank r sent or received in the first, and the first
// messages of each rank carry the delay.
TEST(CollectiveTest, GatesOrderOperationsAtEveryRank) {
  const uint32_t n = 5;
  const Time compute = Time::FromNs(5000);
  for (const CollectiveSpec& spec :
       {Spec(CollectiveKind::kAllReduce, CollectiveAlgorithm::kRing, n, 5 * kMiB, 2, kMiB),
        Spec(CollectiveKind::kAllGather, CollectiveAlgorithm::kRing, n, 5 * kMiB, 2, kMiB),
        Spec(CollectiveKind::kAllReduce, CollectiveAlgorithm::kDoubleBinaryTree, n, 5 * kMiB),
        Spec(CollectiveKind::kBroadcast, CollectiveAlgorithm::kRing, n, 5 * kMiB),
        Spec(CollectiveKind::kAllToAll, CollectiveAlgorithm::kDirect, n, 5 * kMiB)}) {
    Workload w;
    auto first = AppendCollective(spec, {}, Time::Zero(), Time::Zero(), 0, kNoIndex, &w);
    ASSERT_TRUE(first.ok());
    const auto boundary = static_cast<uint32_t>(w.size());
    auto second = AppendCollective(spec, *first, Time::Zero(), compute, 0, kNoIndex, &w);
    ASSERT_TRUE(second.ok());
    ASSERT_TRUE(CheckDependencies(w).ok());
    for (uint32_t m = boundary; m < w.size(); ++m) {
      const uint32_t r = w.flows[m].src_host;
      const std::set<uint32_t> before = Ancestors(w, m);
      for (uint32_t x = 0; x < boundary; ++x) {
        if (w.flows[x].src_host == r || w.flows[x].dst_host == r) {
          EXPECT_TRUE(before.count(x)) << "message " << m << " of rank " << r << " before " << x;
        }
      }
      const bool waits_for_first = std::any_of(w.dependencies(m).begin(), w.dependencies(m).end(),
                                               [&](uint32_t d) { return d < boundary; });
      EXPECT_EQ(w.delay[m], waits_for_first && w.flows[m].src_host == r ? compute : Time::Zero());
    }
  }
}

TEST(CollectiveTest, SameSpecGivesTheSameWorkload) {
  CollectiveSpec spec =
      Spec(CollectiveKind::kAllReduce, CollectiveAlgorithm::kHalvingDoubling, 7, 7 * kMiB, 3);
  const Workload a = Build(spec), b = Build(spec);
  EXPECT_EQ(a.flows, b.flows);
  EXPECT_EQ(a.after, b.after);
  EXPECT_EQ(a.after_begin, b.after_begin);
}

TEST(CollectiveTest, RefusesWhatItCannotBuild) {
  Workload w;
  const auto refused = [&](const CollectiveSpec& s, std::span<const RankGate> gates = {}) {
    return !AppendCollective(s, gates, Time::Zero(), Time::Zero(), 0, kNoIndex, &w).ok();
  };
  EXPECT_TRUE(refused(Spec(CollectiveKind::kAllToAll, CollectiveAlgorithm::kRing, 4, kMiB)));
  EXPECT_TRUE(
      refused(Spec(CollectiveKind::kBroadcast, CollectiveAlgorithm::kHalvingDoubling, 4, kMiB)));
  EXPECT_TRUE(refused(Spec(CollectiveKind::kAllReduce, CollectiveAlgorithm::kRing, 8, 7)));
  CollectiveSpec dup = Spec(CollectiveKind::kAllReduce, CollectiveAlgorithm::kRing, 4, kMiB);
  dup.ranks[3] = 1;
  EXPECT_TRUE(refused(dup));
  const std::vector<RankGate> three(3);
  EXPECT_TRUE(
      refused(Spec(CollectiveKind::kAllReduce, CollectiveAlgorithm::kRing, 4, kMiB), three));
  CollectiveSpec uneven =
      Spec(CollectiveKind::kAllReduce, CollectiveAlgorithm::kHierarchical, 5, kMiB);
  uneven.group_of_rank = {0, 0, 0, 1, 1};
  EXPECT_TRUE(refused(uneven));
  // Across groups, only the kind's own ring, tree or halving-doubling.
  for (const auto& [kind, across] :
       {std::pair{CollectiveKind::kReduceScatter, CollectiveAlgorithm::kDoubleBinaryTree},
        std::pair{CollectiveKind::kBroadcast, CollectiveAlgorithm::kHalvingDoubling},
        std::pair{CollectiveKind::kAllReduce, CollectiveAlgorithm::kDirect},
        std::pair{CollectiveKind::kAllReduce, CollectiveAlgorithm::kHierarchical}}) {
    CollectiveSpec spec = Spec(kind, CollectiveAlgorithm::kHierarchical, 4, kMiB);
    spec.group_of_rank = {0, 0, 1, 1};
    spec.across = across;
    EXPECT_TRUE(refused(spec)) << CollectiveKindName(kind) << " "
                               << CollectiveAlgorithmName(across);
  }
  CollectiveSpec root = Spec(CollectiveKind::kBroadcast, CollectiveAlgorithm::kRing, 4, kMiB);
  root.root = 4;
  EXPECT_TRUE(refused(root));
  EXPECT_TRUE(w.flows.empty());
}

}  // namespace
}  // namespace fe
