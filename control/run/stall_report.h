// Says why flows made no progress: which flows, where on their paths their frames were dropped
// (from the switches' per-queue drop counters and the links' losses) and the setting behind the
// drops, for the message a run that stopped for want of progress ends with.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "control/emulation/emulation.h"

namespace fe::control {

// One paragraph: `why` (what was seen), then for the first few of `flows` (message ids) their
// id, hosts, the hop of their path that dropped most and the setting to look at.
std::string DescribeStall(const Emulation& e, const std::string& why,
                          std::span<const uint32_t> flows, uint32_t mtu_payload_bytes);

}  // namespace fe::control
