// Permutation traffic: every host sends one message to exactly one other host and receives
// exactly one, the classic full-bisection stress pattern.
#pragma once

#include <cstdint>
#include <vector>

#include "core/units.h"
#include "traffic/flow.h"

namespace fe {

// Returns num_hosts flows, flow i from host i, all starting at `start`. The destination map is a
// derangement (no host sends to itself) drawn uniformly among all derangements of num_hosts
// hosts: a Fisher-Yates shuffle rejected and redrawn while it has a fixed point (about e tries on
// average). Sattolo's algorithm would be cheaper but yields single cycles only, a restricted and
// structured subset. Deterministic for a seed. Fewer than two hosts admit no derangement: the
// result is then empty.
std::vector<Flow> MakePermutation(uint32_t num_hosts, uint64_t message_bytes, Time start,
                                  uint64_t seed);

}  // namespace fe
