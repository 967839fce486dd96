// How many packets a software run's pool may hold. The pool grows a huge page at a time as packets
// pile up in switch buffers and on wires, so its cap costs nothing until it is reached; the cap is
// every packet of the workload twice over (data and acknowledgements all in flight at once), or
// what the machine's memory can hold beside the fabric, whichever is less. A fabric the machine
// cannot even set up is refused before anything is built, and a run whose packets outgrow the
// memory stops with a message that says how much it held and why (docs/scale.md).
#pragma once

#include <cstdint>
#include <string>

#include "core/status.h"
#include "core/units.h"

namespace fe::control {

// run.memory_limit_bytes below this is refused as a slip of units: no fabric runs in less.
inline constexpr uint64_t kMinMemoryLimitBytes = uint64_t{64} << 20;

// What a fabric costs before its first packet, by element, as measured on a k = 64 fat-tree
// (docs/scale.md, "Memory per element"): the estimate a run is refused by, kept on the high side.
struct SetUpCost {
  uint64_t link_ends = 0;  // one per link and direction: egress port, MMU rows, graph, routes
  uint64_t hosts = 0;      // a NIC per host port
  uint64_t switches = 0;   // a switch with its compiled config and per-port pause timing
  uint64_t messages = 0;   // sender and receiver state, the workload's flow, its output rows

  static constexpr uint64_t kBytesPerLinkEnd = 768;
  static constexpr uint64_t kBytesPerHost = 640;
  static constexpr uint64_t kBytesPerSwitch = 4608;
  static constexpr uint64_t kBytesPerMessage = 1024;
  // The process before any of it: binary, libraries, DPDK's heap, protobuf, outputs' buffers.
  static constexpr uint64_t kBaseBytes = uint64_t{96} << 20;

  uint64_t Bytes() const;
};

struct PacketBudget {
  uint64_t pool_cap = 0;          // mbufs the pool may grow to
  uint64_t bytes_per_packet = 0;  // an mbuf with its queue entry or its arrival event
  uint64_t available_bytes = 0;   // what the run may take: the machine's, or the limit given
  bool limit_given = false;       // available_bytes is run.memory_limit_bytes
  uint64_t set_up_bytes = 0;      // SetUpCost::Bytes()
  bool memory_bound = false;      // the cap is what memory allows, short of the workload's need
};

// The cap for a workload of `workload_packets` data packets, each packet taking bytes_per_packet,
// on a fabric costing `set_up`, with available_bytes to take (0: unknown, no memory bound): the
// machine's, or run.memory_limit_bytes when limit_given. Refused, saying how much is needed,
// when the set-up alone would not fit or leave room for min_pool packets.
StatusOr<PacketBudget> PlanPacketBudget(const SetUpCost& set_up, uint64_t workload_packets,
                                        uint64_t bytes_per_packet, uint64_t available_bytes,
                                        bool limit_given, uint64_t min_pool);

// Why a run stopped when its pool could not give a packet, with `in_use` packets held at `now`:
// the memory they took and, when memory bound the pool, what to change; else the usual cause
// (retransmission timeouts shorter than a round trip, when some fired).
std::string OutOfPacketsMessage(const PacketBudget& budget, uint64_t in_use, Time now,
                                uint64_t retransmit_timeouts);

}  // namespace fe::control
