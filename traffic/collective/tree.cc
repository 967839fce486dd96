// NCCL's double binary tree (Sanders, Speck and Träff, "Two-tree algorithms for full bandwidth
// broadcast, reduction and scan", 2009; NCCL 2.4's src/graph/trees.cc). Tree 0 is the in-order
// binary tree NCCL builds over ranks 0..N-1 (ncclGetBtree: rank 0 the root, the lowest set bit of
// a rank giving its level); tree 1 is its mirror (rank N-1-r) when N is even, or its shift by one
// when N is odd, so that a rank inner in one tree is a leaf in the other and every rank sends about
// as much in both. Each tree carries half of the bytes.
//
// AllReduce: every chunk goes up (a rank sends chunk c to its parent once chunk c of each child
// has arrived), then down from the root (a rank passes chunk c to its children once it arrived
// from the parent). Broadcast: tree 0 is built over ranks numbered from the root; for tree 1 the
// root hands its half to rank root + 1, which roots the same tree built over the other N - 1
// ranks: again inner and leaf ranks swap between the trees.
//
// Each edge sends its chunks in turn, as NCCL does over the edge's one connection and as a ring
// Broadcast's hops do (ring.cc, which weighs this against two chunks in flight):
// chunk k of an edge also waits for the edge's chunk k - 1 to have arrived. Released together, an
// edge's chunks would share the link and all arrive at the end, and the tree would move its
// whole half of the buffer one level at a time. The wait idles an edge for its latency and the
// lookahead after each chunk, but a rank's link carries up to four edges (to its parent and two
// children in one tree, to its parent in the other), which use it meanwhile. So an operation
// takes about the bytes of the busiest link at its payload rate B (2S for an AllReduce with N
// even, S for a Broadcast) plus the first chunk's way from the first sender to the last leaf,
// at most a chunk time on a link shared four ways per hop: with S = 16 MiB, 512 KiB chunks, 16
// ranks (depth 4, 8 hops for AllReduce) and B = 96 Gb/s, 2795 us plus at most 8 x 175 us.
#include <algorithm>
#include <numeric>

#include "traffic/collective/algorithms.h"

namespace fe {
namespace {

// ncclGetBtree's parent of `rank` among `n`, or -1 for the root (rank 0).
int BtreeParent(int n, int rank) {
  if (rank == 0) return -1;
  int bit = 1;
  while (bit < n && (bit & rank) == 0) bit <<= 1;
  const int up = (rank ^ bit) | (bit << 1);
  return up >= n ? rank ^ bit : up;
}

// A tree over positions: parent by position (-1 at the root), children by position (in position
// order) and an order with every child before its parent.
struct Tree {
  std::vector<int> parent;
  std::vector<std::vector<uint32_t>> children;
  std::vector<uint32_t> bottom_up;
};

Tree MakeTree(std::vector<int> parent) {
  const auto n = static_cast<uint32_t>(parent.size());
  std::vector<uint32_t> depth(n, 0);
  for (uint32_t r = 0; r < n; ++r) {
    for (int p = parent[r]; p >= 0; p = parent[p]) ++depth[r];
  }
  Tree t{std::move(parent), std::vector<std::vector<uint32_t>>(n), std::vector<uint32_t>(n)};
  for (uint32_t r = 0; r < n; ++r) {
    if (t.parent[r] >= 0) t.children[t.parent[r]].push_back(r);
  }
  std::iota(t.bottom_up.begin(), t.bottom_up.end(), 0u);
  std::stable_sort(t.bottom_up.begin(), t.bottom_up.end(),
                   [&](uint32_t x, uint32_t y) { return depth[x] > depth[y]; });
  return t;
}

// The two trees of ncclGetDtree over positions 0..n-1.
std::vector<Tree> DoubleTree(int n) {
  std::vector<int> first(n), second(n);
  for (int r = 0; r < n; ++r) {
    first[r] = BtreeParent(n, r);
    if (n % 2 == 1) {
      const int u = BtreeParent(n, (r - 1 + n) % n);
      second[r] = u < 0 ? -1 : (u + 1) % n;
    } else {
      const int u = BtreeParent(n, n - 1 - r);
      second[r] = u < 0 ? -1 : n - 1 - u;
    }
  }
  std::vector<Tree> trees;
  trees.push_back(MakeTree(std::move(first)));
  trees.push_back(MakeTree(std::move(second)));
  return trees;
}

// The two broadcast trees over positions counted from the root, and for tree 1 the hand-over from
// the root to position 1 (parent -1 at position 0 in both; position 0 is outside tree 1).
std::vector<Tree> BroadcastTrees(int n) {
  std::vector<int> first(n), second(n, -1);
  for (int p = 0; p < n; ++p) first[p] = BtreeParent(n, p);
  for (int p = 1; p < n; ++p) {
    const int u = BtreeParent(n - 1, p - 1);
    second[p] = u < 0 ? 0 : u + 1;  // tree 1's root gets its half from the root
  }
  std::vector<Tree> trees;
  trees.push_back(MakeTree(std::move(first)));
  trees.push_back(MakeTree(std::move(second)));
  return trees;
}

}  // namespace

std::vector<RankGate> AppendDoubleTree(const AlgorithmArgs& a, const OpContext& c, Workload* w) {
  const auto n = static_cast<uint32_t>(a.hosts.size());
  const bool broadcast = a.kind == CollectiveKind::kBroadcast;
  const std::vector<Tree> trees = broadcast ? BroadcastTrees(n) : DoubleTree(n);
  // Position p of a broadcast is rank (root + p) mod n.
  const auto rank = [&](uint32_t p) { return broadcast ? (a.root + p) % n : p; };
  CollectiveBuilder b(a.hosts, a.gates, 2 * a.channels, c, *w);
  std::vector<uint32_t> up(n), down(n);
  std::vector<uint32_t> deps;
  for (uint32_t t = 0; t < 2; ++t) {
    const Tree& tree = trees[t];
    for (uint32_t ch = 0; ch < a.channels; ++ch) {
      const uint32_t key = t * a.channels + ch;
      const uint64_t stream_bytes = Share(Share(a.size_bytes, 2, t), a.channels, ch);
      const uint64_t chunks = ChunksOf(stream_bytes, a.chunk_bytes);
      for (uint64_t k = 0; k < chunks; ++k) {
        const uint64_t bytes = Share(stream_bytes, chunks, k);
        if (!broadcast) {
          for (const uint32_t p : tree.bottom_up) {
            if (tree.parent[p] < 0) continue;
            deps.clear();
            for (const uint32_t q : tree.children[p]) deps.push_back(up[q]);
            if (k > 0) deps.push_back(up[p]);  // chunk k - 1 has arrived at the parent
            up[p] = b.Send(rank(p), rank(tree.parent[p]), bytes, key, deps);
          }
        }
        // Down: the root's children wait for the chunk's reduction (AllReduce) or nothing.
        for (auto it = tree.bottom_up.rbegin(); it != tree.bottom_up.rend(); ++it) {
          const uint32_t p = *it;
          const int parent = tree.parent[p];
          if (parent < 0) continue;
          deps.clear();
          if (tree.parent[parent] >= 0) {
            deps.push_back(down[parent]);
          } else if (!broadcast) {
            for (const uint32_t q : tree.children[parent]) deps.push_back(up[q]);
          }
          if (k > 0) deps.push_back(down[p]);  // chunk k - 1 has arrived at p
          down[p] = b.Send(rank(parent), rank(p), bytes, key, deps);
        }
      }
    }
  }
  return b.Finish(w);
}

}  // namespace fe
