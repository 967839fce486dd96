// A flow (one RDMA message): the unit every traffic generator emits and the NIC transports.
#pragma once

#include <cstdint>

#include "core/units.h"

namespace fe {

struct Flow {
  uint32_t id = 0;  // unique within one generated list; callers merging lists renumber
  uint32_t src_host = 0;
  uint32_t dst_host = 0;
  uint64_t size_bytes = 0;
  Time start;
  uint8_t priority = 0;  // traffic class; generators leave 0 and the scenario assigns it

  bool operator==(const Flow&) const = default;
};

}  // namespace fe
