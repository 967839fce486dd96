// The flow completion time a message would have alone in the fabric: the yardstick for slowdown.
#pragma once

#include <cstdint>

#include "core/units.h"

namespace fe::control {

struct PathShape {
  uint32_t links = 0;  // store-and-forward hops from source NIC to destination NIC
  Rate rate;           // every link's rate (the fabrics built so far have one rate)
  Time delay;          // every link's propagation delay
};

// Serialisation of every packet at the source, then on each further hop the largest packet's
// serialisation, plus propagation on every hop (a tandem of equal-rate store-and-forward links).
Time StandaloneFct(uint64_t size_bytes, uint32_t mtu_payload_bytes, const PathShape& path);

}  // namespace fe::control
