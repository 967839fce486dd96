// Recursive halving and doubling (Thakur, Rabenseifner and Gropp, "Optimization of collective
// communication operations in MPICH", IJHPCA 2005). Over a power of two of ranks, the
// reduce-scatter runs log2 N rounds: in the round of distance d (N/2, N/4, .., 1) each rank swaps
// with rank r xor d the half of the blocks it still holds that the partner keeps; the all-gather
// runs the rounds back (d = 1, 2, .., N/2), each rank sending all it has gathered. AllReduce is
// the one then the other. Every rank sends (N - 1)/N of the buffer per half, as with a ring, in
// log2 N rounds instead of N - 1.
//
// Other rank counts fold, as MPICH does: with p the largest power of two below N and
// rem = N - p, each even rank below 2 rem first hands its data to the odd rank above it (the
// whole buffer for AllReduce and ReduceScatter, its block for AllGather) and sits the rounds out;
// the p others run the rounds, the odd ones standing for two ranks' blocks; at the end each
// hands its partner the partner's result (the whole buffer, its block, or every block but its
// own). The folded ranks send and receive more, and the operation takes two rounds more.
//
// The bytes of each channel are cut into pieces of N chunk_bytes (a chunk per block), each
// piece running all the rounds on its own, like the chunks of a ring. In each round a rank's
// message waits for the message it received in the round before and, as on a ring, for its own
// of two rounds before (a chain of its sends that never waits on the far end of a link).
#include <algorithm>

#include "traffic/collective/algorithms.h"

namespace fe {

std::vector<RankGate> AppendHalvingDoubling(const AlgorithmArgs& a, const OpContext& c,
                                            Workload* w) {
  const auto n = static_cast<uint32_t>(a.hosts.size());
  uint32_t p = 1;
  while (p * 2 <= n) p *= 2;
  const uint32_t rem = n - p;
  // Participant i is rank RankOf(i); participant i < rem also stands for rank 2i.
  const auto rank_of = [&](uint32_t i) { return i < rem ? 2 * i + 1 : i + rem; };
  const bool reduce = a.kind != CollectiveKind::kAllGather;
  const bool gather = a.kind != CollectiveKind::kReduceScatter;
  CollectiveBuilder b(a.hosts, a.gates, a.channels, c, *w);
  std::vector<uint64_t> group(p);  // bytes of the blocks participant i stands for
  std::vector<uint32_t> received(n), sent(n), sent_before(n), next(p);
  std::vector<uint32_t> deps;
  const auto round = [&](uint32_t i, uint32_t partner, uint64_t bytes, uint32_t ch) {
    deps.clear();
    for (const uint32_t d : {received[rank_of(i)], sent_before[rank_of(i)]}) {
      if (d != kNoIndex) deps.push_back(d);
    }
    next[i] = b.Send(rank_of(i), rank_of(partner), bytes, ch, deps);
  };
  const auto sum = [&](uint32_t first, uint32_t count) {
    uint64_t s = 0;
    for (uint32_t g = first; g < first + count; ++g) s += group[g];
    return s;
  };
  for (uint32_t ch = 0; ch < a.channels; ++ch) {
    const uint64_t channel_bytes = Share(a.size_bytes, a.channels, ch);
    const uint64_t pieces = ChunksOf(channel_bytes / n, a.chunk_bytes);
    for (uint64_t k = 0; k < pieces; ++k) {
      const uint64_t piece = Share(channel_bytes, pieces, k);
      const auto block = [&](uint32_t r) { return Share(piece, n, r); };
      for (uint32_t i = 0; i < p; ++i) {
        group[i] = block(rank_of(i)) + (i < rem ? block(2 * i) : 0);
      }
      std::fill(received.begin(), received.end(), kNoIndex);
      std::fill(sent.begin(), sent.end(), kNoIndex);
      std::fill(sent_before.begin(), sent_before.end(), kNoIndex);
      for (uint32_t i = 0; i < rem; ++i) {
        const uint32_t id = b.Send(2 * i, 2 * i + 1, reduce ? piece : block(2 * i), ch);
        sent[2 * i] = id;
        received[2 * i + 1] = id;
      }
      const auto finish_round = [&](uint32_t d) {
        for (uint32_t i = 0; i < p; ++i) {
          sent_before[rank_of(i)] = sent[rank_of(i)];
          sent[rank_of(i)] = next[i];
          received[rank_of(i ^ d)] = next[i];
        }
      };
      if (reduce) {
        for (uint32_t d = p / 2; d >= 1; d /= 2) {
          // Each keeps the half of its 2d blocks holding its own and sends the partner's half.
          for (uint32_t i = 0; i < p; ++i) round(i, i ^ d, sum((i ^ d) & ~(d - 1), d), ch);
          finish_round(d);
        }
      }
      if (gather) {
        for (uint32_t d = 1; d < p; d *= 2) {
          for (uint32_t i = 0; i < p; ++i) round(i, i ^ d, sum(i & ~(d - 1), d), ch);
          finish_round(d);
        }
      }
      for (uint32_t i = 0; i < rem; ++i) {
        const uint64_t bytes = a.kind == CollectiveKind::kAllReduce       ? piece
                               : a.kind == CollectiveKind::kReduceScatter ? block(2 * i)
                                                                          : piece - block(2 * i);
        // The result holds what arrived in the last round and, through the participant's own
        // last send, in every round before.
        b.Send(2 * i + 1, 2 * i, bytes, ch, {received[2 * i + 1], sent[2 * i + 1]});
      }
    }
  }
  return b.Finish(w);
}

}  // namespace fe
