// Events appended by one thread while another reads those already appended: storage in fixed
// blocks that never move, where a vector's growth would move every event under its reader.
// Appending costs a store and a test, as a vector's push_back. The block table is reserved
// once (untouched memory costs no RSS), so it never moves either.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "core/event_queue.h"

namespace fe {

class EventLog {
 public:
  static constexpr uint32_t kBlockEvents = 1024;  // 32 KB
  static constexpr uint32_t kMaxBlocks = 1u << 16;

  EventLog() { blocks_.reserve(kMaxBlocks); }
  EventLog(EventLog&&) noexcept = default;
  EventLog& operator=(EventLog&&) noexcept = default;

  uint32_t size() const { return size_; }
  // Keeps the blocks for the next appends.
  void clear() { size_ = 0; }
  const Event& operator[](uint32_t i) const { return blocks_[i / kBlockEvents][i % kBlockEvents]; }
  [[gnu::always_inline]] void push_back(const Event& e) {
    const uint32_t slot = size_ % kBlockEvents;
    if (slot == 0 && size_ / kBlockEvents == blocks_.size()) [[unlikely]] {
      AddBlock();
    }
    StoreEvent(e, &blocks_[size_ / kBlockEvents][slot]);
    ++size_;
  }

 private:
  void AddBlock() {
    if (blocks_.size() == kMaxBlocks) {
      // 64 Mi events handed on by one thread in one window of the lookahead: no fabric that
      // fits in memory comes near.
      std::fprintf(stderr, "fabric-emu: internal error: more than %u events in a lane's outbox\n",
                   kMaxBlocks * kBlockEvents);
      std::abort();
    }
    blocks_.push_back(std::make_unique_for_overwrite<Event[]>(kBlockEvents));
  }

  std::vector<std::unique_ptr<Event[]>> blocks_;
  uint32_t size_ = 0;
};

}  // namespace fe
