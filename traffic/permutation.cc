#include "traffic/permutation.h"

#include <numeric>
#include <utility>

#include "core/random.h"

namespace fe {
namespace {

// Fills dst with a uniform random permutation, giving up (false) as soon as a position is fixed
// to itself. Aborting early keeps uniformity: acceptance depends only on the finished
// permutation, and every attempt draws fresh numbers.
bool TryDerangement(Random& rng, std::vector<uint32_t>& dst) {
  std::iota(dst.begin(), dst.end(), 0u);
  for (uint32_t i = static_cast<uint32_t>(dst.size()) - 1; i > 0; --i) {
    const uint32_t j = static_cast<uint32_t>(rng.NextBelow(uint64_t{i} + 1));
    std::swap(dst[i], dst[j]);
    if (dst[i] == i) return false;  // position i is final from here on
  }
  return dst[0] != 0;
}

}  // namespace

std::vector<Flow> MakePermutation(uint32_t num_hosts, uint64_t message_bytes, Time start,
                                  uint64_t seed) {
  if (num_hosts < 2) return {};
  Random rng(seed);
  std::vector<uint32_t> dst(num_hosts);
  while (!TryDerangement(rng, dst)) {
  }
  std::vector<Flow> flows(num_hosts);
  for (uint32_t src = 0; src < num_hosts; ++src) {
    flows[src] = Flow{.id = src,
                      .src_host = src,
                      .dst_host = dst[src],
                      .size_bytes = message_bytes,
                      .start = start};
  }
  return flows;
}

}  // namespace fe
