// The messages of one collective operation as an algorithm lays them out, and what every algorithm
// shares: gates, message ids and each rank's completion. An algorithm only says who sends how many
// bytes to whom after which of the operation's own messages; the builder makes sure no rank sends
// before its gate and works out, per rank, which messages complete the operation there.
//
// Gates. A rank's first message of each channel waits for the rank's gate (plus the delay); its
// other messages that follow none of its own wait for that first one. That costs one message's
// latency per operation, rank and channel, and keeps the dependency lists linear in the number of
// messages: attaching a gate of G messages to each of a rank's C first chunks would cost G x C. A
// rank that sends nothing has the gate put on the first message it receives.
//
// Completion. A rank is done with the operation when it holds its result and what it sent has
// arrived: its gate out is every message it received or sent that none of its own later sends
// depends on. That set follows, through the chains above, the rank's gate in, so operations
// chained by gates never overlap at a rank.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

#include "core/units.h"
#include "traffic/collective/collective.h"
#include "traffic/workload.h"

namespace fe {

// Bytes of part `index` when `total` is cut into `parts` near-equal parts (the first total %
// parts are a byte longer).
inline uint64_t Share(uint64_t total, uint64_t parts, uint64_t index) {
  return total / parts + (index < total % parts ? 1 : 0);
}

// Where the messages go: the operation's index and whom they belong to.
struct OpContext {
  uint32_t op = 0;
  uint32_t job = 0;
  uint32_t iteration = kNoIndex;
  Time start;
  Time delay;
};

class CollectiveBuilder {
 public:
  // hosts: the host of each rank taking part, by position; gates: by position, or empty (none);
  // channels: how many distinct channel keys Send is given. `w` is read for its size only: ids
  // continue from it, and nothing else may append to it before Finish.
  CollectiveBuilder(std::span<const uint32_t> hosts, std::span<const RankGate> gates,
                    uint32_t channels, const OpContext& context, const Workload& w);

  // A message of `bytes` from position `from` to position `to` on channel key `channel`, waiting
  // for `deps` (ids Send returned). Returns its id.
  uint32_t Send(uint32_t from, uint32_t to, uint64_t bytes, uint32_t channel,
                std::initializer_list<uint32_t> deps = {});
  uint32_t Send(uint32_t from, uint32_t to, uint64_t bytes, uint32_t channel,
                std::span<const uint32_t> deps);

  // Appends the messages to `w` and returns each position's gate out. A position that took no
  // part keeps its gate in.
  std::vector<RankGate> Finish(Workload* w);

 private:
  struct Pending {
    uint32_t from = 0;
    uint32_t to = 0;
    uint64_t bytes = 0;
    bool anchored = false;  // carries the sender's gate and delay
    uint32_t deps_begin = 0;
    uint32_t deps_end = 0;
  };
  bool Own(uint32_t id) const { return id >= base_ && id - base_ < pending_.size(); }

  std::span<const uint32_t> hosts_;
  std::span<const RankGate> gates_;
  uint32_t channels_;
  OpContext context_;
  uint32_t base_;
  std::vector<Pending> pending_;
  std::vector<uint32_t> deps_;
  std::vector<uint32_t> anchor_;  // by position x channels + channel; kNoIndex: none yet
};

}  // namespace fe
