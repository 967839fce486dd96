// The KV-cache blocks one decode endpoint holds, by hash id (a Mooncake trace's hash_ids), so that
// a request sends only the blocks past the prefix the endpoint already has.
//
// Only a prefix is reused: a block's keys and values depend on every token before it, so a block
// equal to one held is of use only when all blocks before it are held too. (The released traces
// number blocks by prefix, so there the two readings agree.) With a capacity, the least recently
// used blocks are evicted first, as vLLM and SGLang evict their prefix caches; without one, every
// block ever received stays.
#pragma once

#include <cstdint>
#include <list>
#include <span>
#include <unordered_map>

namespace fe {

class KvBlockCache {
 public:
  // capacity_blocks 0: unbounded.
  explicit KvBlockCache(uint64_t capacity_blocks = 0) : capacity_(capacity_blocks) {}

  // How many leading blocks of `hashes` are held.
  uint64_t HeldPrefix(std::span<const uint64_t> hashes) const;

  // The endpoint now holds every block of `hashes` (received, or reused and so used again): they
  // become the most recently used, and the least recently used beyond the capacity go.
  void Hold(std::span<const uint64_t> hashes);

  uint64_t size() const { return static_cast<uint64_t>(order_.size()); }

 private:
  uint64_t capacity_;
  std::list<uint64_t> order_;  // most recently used first
  std::unordered_map<uint64_t, std::list<uint64_t>::iterator> where_;
};

}  // namespace fe
