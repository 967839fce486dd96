// Incast traffic: N senders each send one message to a single receiver at (nearly) the same
// time, the pattern that fills a switch buffer and triggers ECN and PFC.
#pragma once

#include <cstdint>
#include <vector>

#include "core/status.h"
#include "core/units.h"
#include "traffic/flow.h"

namespace fe {

enum class IncastSenders {
  kAfterReceiver,  // hosts receiver+1, receiver+2, ... (modulo num_hosts): stable, seed-free
  kRandom,         // num_senders hosts drawn uniformly without replacement, by seed
  kList,           // exactly `sender_list`
};

struct IncastParams {
  uint32_t num_hosts = 0;
  uint32_t receiver = 0;
  IncastSenders senders = IncastSenders::kAfterReceiver;
  uint32_t num_senders = 0;           // for kAfterReceiver and kRandom
  std::vector<uint32_t> sender_list;  // for kList; order is kept
  uint64_t message_bytes = 0;
  Time start;
  // Each sender starts at start + a uniform draw in [0, start_jitter) picoseconds; zero means
  // all start together.
  Time start_jitter;
  uint64_t seed = 0;
};

// One flow per sender, ids 0..N-1 in sender order (ascending host id except for kList).
// Refuses a receiver or sender outside the hosts, a sender equal to the receiver or repeated,
// zero senders or more than num_hosts - 1, a zero message and a negative jitter.
StatusOr<std::vector<Flow>> MakeIncast(const IncastParams& params);

}  // namespace fe
