// Every pair at once. AllToAll (the expert-parallel exchange of mixture-of-experts layers): each
// rank's buffer holds a block for every rank and it sends block j to rank j, N - 1 messages of
// 1/N of the buffer (its own block stays). Rank r addresses r + 1, r + 2, .. in turn, as NCCL's
// send/recv loop does, so that at any moment the ranks' first messages go to distinct
// receivers. SendRecv: rank 0 sends the whole buffer to rank 1 (a pipeline-parallel hand-over).
// Channels and chunks cut every message as for the other algorithms; nothing waits for
// anything but the gates.
#include "traffic/collective/algorithms.h"

namespace fe {

std::vector<RankGate> AppendDirect(const AlgorithmArgs& a, const OpContext& c, Workload* w) {
  const auto n = static_cast<uint32_t>(a.hosts.size());
  const bool all_to_all = a.kind == CollectiveKind::kAllToAll;
  CollectiveBuilder b(a.hosts, a.gates, a.channels, c, *w);
  for (uint32_t ch = 0; ch < a.channels; ++ch) {
    const uint64_t channel_bytes = Share(a.size_bytes, a.channels, ch);
    const uint64_t chunks = ChunksOf(all_to_all ? channel_bytes / n : channel_bytes, a.chunk_bytes);
    for (uint64_t k = 0; k < chunks; ++k) {
      if (!all_to_all) {
        b.Send(0, 1, Share(channel_bytes, chunks, k), ch);
        continue;
      }
      for (uint32_t d = 1; d < n; ++d) {
        for (uint32_t r = 0; r < n; ++r) {
          const uint32_t to = (r + d) % n;
          b.Send(r, to, Share(Share(channel_bytes, n, to), chunks, k), ch);
        }
      }
    }
  }
  return b.Finish(w);
}

}  // namespace fe
