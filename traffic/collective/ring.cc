// Rings. Rank r sends to rank r + 1 (mod N) only. AllReduce is a reduce-scatter followed by an
// all-gather, 2(N - 1) steps in all; at step k rank r sends slice (r - k) mod N, which it
// received (and reduced) at step k - 1, so every rank sends 2(N - 1)/N of the buffer. A
// ReduceScatter is the first N - 1 of those steps, an AllGather the same steps over the gathered
// buffer's slices. Broadcast is a chain from the root, each rank passing each chunk on as soon as
// it has it.
//
// A Broadcast hop sends its chunks one after another, as NCCL does over the hop's one connection:
// chunk k also waits for the hop's chunk k - 1 to have arrived at the next rank. Released
// together, a hop's chunks would share its link round robin and all arrive at the end, so no rank
// could pass one on early and every hop would cost the whole buffer. A dependency can wait for an
// arrival but not for a last byte leaving, so one chunk in flight leaves the link idle between
// chunks for the hop's latency l (last byte out to delivered) plus the lookahead L (the news
// crossing back). With C chunks per channel, H = N - 1 hops and T a chunk's time at the link's
// payload rate, the chain ends after
//   (C + H - 1)(T + l) + (C - 1) L,
// and the idle time is (C - 1)(l + L) more than a chain that sends back to back. Two chunks in
// flight (k waiting for k - 2) would keep the link busy, but the two share it, so a chunk reaches
// the next rank after 2T, not T: about (C + 2(H - 1)) T, slower as long as (C - 1)(l + L) <
// (H - 1) T, which holds for up to ~180 chunks per channel (90 MiB) with 16 ranks on one
// 100 Gb/s switch and 512 KiB chunks (T = 43.7 us, l + L = 3.3 us); with 2 chunks it would not
// pipeline at all.
//
// Each channel carries 1/channels of the bytes, and each rank slice of a channel is cut into chunks
// of at most chunk_bytes. Chunk c of step k waits for chunk c of step k - 1 to arrive: the ring's
// pipeline, and the only wait on its critical path, a delivery at the sender itself. It also waits
// for the sender's own chunk c of step k - 2 to have arrived, which keeps a rank's sends in one
// chain (so that its last two sends and last receive stand for all it did, the gate of what
// follows) without waiting on the far end of the link at every step: that chunk arrived a step
// earlier.
#include <algorithm>

#include "traffic/collective/algorithms.h"

namespace fe {
namespace {}  // namespace

uint64_t ChunksOf(uint64_t smallest_slice, uint64_t chunk_bytes) {
  return std::max<uint64_t>(1, (smallest_slice + chunk_bytes - 1) / chunk_bytes);
}

namespace {

std::vector<RankGate> Chain(const AlgorithmArgs& a, const OpContext& c, Workload* w) {
  const auto n = static_cast<uint32_t>(a.hosts.size());
  CollectiveBuilder b(a.hosts, a.gates, a.channels, c, *w);
  // sent[p]: the chunk hop p sent last, which its next chunk waits for.
  std::vector<uint32_t> sent(n - 1);
  std::vector<uint32_t> deps;
  for (uint32_t ch = 0; ch < a.channels; ++ch) {
    const uint64_t channel_bytes = Share(a.size_bytes, a.channels, ch);
    const uint64_t chunks = ChunksOf(channel_bytes, a.chunk_bytes);
    for (uint64_t k = 0; k < chunks; ++k) {
      const uint64_t bytes = Share(channel_bytes, chunks, k);
      for (uint32_t p = 0; p + 1 < n; ++p) {
        const uint32_t from = (a.root + p) % n;
        deps.clear();
        if (p > 0) deps.push_back(sent[p - 1]);  // chunk k has arrived at `from`
        if (k > 0) deps.push_back(sent[p]);      // chunk k - 1 has arrived at the next rank
        sent[p] = b.Send(from, (from + 1) % n, bytes, ch, deps);
      }
    }
  }
  return b.Finish(w);
}

}  // namespace

std::vector<RankGate> AppendRing(const AlgorithmArgs& a, const OpContext& c, Workload* w) {
  if (a.kind == CollectiveKind::kBroadcast) return Chain(a, c, w);
  const auto n = static_cast<uint32_t>(a.hosts.size());
  const uint32_t steps = a.kind == CollectiveKind::kAllReduce ? 2 * (n - 1) : n - 1;
  CollectiveBuilder b(a.hosts, a.gates, a.channels, c, *w);
  struct Stream {
    uint64_t channel_bytes;
    uint64_t chunks;
  };
  std::vector<Stream> streams(a.channels);
  for (uint32_t ch = 0; ch < a.channels; ++ch) {
    const uint64_t channel_bytes = Share(a.size_bytes, a.channels, ch);
    streams[ch] = {channel_bytes, ChunksOf(channel_bytes / n, a.chunk_bytes)};
  }
  // last[ch][chunk][r], before[ch][chunk][r]: rank r's message of the previous step (which rank
  // r + 1 received) and of the step before.
  std::vector<std::vector<std::vector<uint32_t>>> last(a.channels), before(a.channels);
  for (uint32_t ch = 0; ch < a.channels; ++ch) {
    last[ch].assign(streams[ch].chunks, std::vector<uint32_t>(n, kNoIndex));
    before[ch] = last[ch];
  }
  std::vector<uint32_t> sent(n);
  for (uint32_t step = 0; step < steps; ++step) {
    for (uint32_t ch = 0; ch < a.channels; ++ch) {
      for (uint64_t k = 0; k < streams[ch].chunks; ++k) {
        std::vector<uint32_t>& prev = last[ch][k];
        std::vector<uint32_t>& prev2 = before[ch][k];
        for (uint32_t r = 0; r < n; ++r) {
          const uint32_t slice = (r + n * 2 - step % n) % n;
          const uint64_t bytes =
              Share(Share(streams[ch].channel_bytes, n, slice), streams[ch].chunks, k);
          const uint32_t to = (r + 1) % n;
          const uint32_t received = prev[(r + n - 1) % n];
          sent[r] = step == 0   ? b.Send(r, to, bytes, ch)
                    : step == 1 ? b.Send(r, to, bytes, ch, {received})
                                : b.Send(r, to, bytes, ch, {received, prev2[r]});
        }
        prev2 = prev;
        prev = sent;
      }
    }
  }
  return b.Finish(w);
}

}  // namespace fe
