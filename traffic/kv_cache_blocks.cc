#include "traffic/kv_cache_blocks.h"

namespace fe {

uint64_t KvBlockCache::HeldPrefix(std::span<const uint64_t> hashes) const {
  uint64_t n = 0;
  while (n < hashes.size() && where_.contains(hashes[n])) ++n;
  return n;
}

void KvBlockCache::Hold(std::span<const uint64_t> hashes) {
  // Last block first, so the first block ends the most recently used: of one prompt the tail is
  // evicted before the prefix it hangs on (vLLM frees a sequence's blocks in the same order),
  // and what stays is still a usable prefix.
  for (auto h = hashes.rbegin(); h != hashes.rend(); ++h) {
    const auto it = where_.find(*h);
    if (it != where_.end()) {
      order_.splice(order_.begin(), order_, it->second);
    } else {
      order_.push_front(*h);
      where_.emplace(*h, order_.begin());
    }
  }
  while (capacity_ != 0 && order_.size() > capacity_) {
    where_.erase(order_.back());
    order_.pop_back();
  }
}

}  // namespace fe
