#include "control/scenario/packet_budget.h"

#include <algorithm>
#include <cstdio>

namespace fe::control {
namespace {

// What the run keeps beside the estimate: the kernel's page cache for the outputs, allocator
// slack, growth of the glibc heap between its trims.
constexpr uint64_t kMarginPercent = 10;
// More than a 2 MiB growth of the pool holds at its smallest element.
constexpr uint64_t kPacketsPerGrowth = (uint64_t{2} << 20) / 192;

std::string GiB(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f GiB", static_cast<double>(bytes) / (1u << 30));
  return text;
}

// Where available_bytes came from, for a message.
std::string Available(bool limit_given, uint64_t bytes) {
  return limit_given ? "run.memory_limit_bytes allows " + GiB(bytes)
                     : "the machine had " + GiB(bytes) + " available when the run started";
}

}  // namespace

uint64_t SetUpCost::Bytes() const {
  return kBaseBytes + link_ends * kBytesPerLinkEnd + hosts * kBytesPerHost +
         switches * kBytesPerSwitch + messages * kBytesPerMessage;
}

StatusOr<PacketBudget> PlanPacketBudget(const SetUpCost& set_up, uint64_t workload_packets,
                                        uint64_t bytes_per_packet, uint64_t available_bytes,
                                        bool limit_given, uint64_t min_pool) {
  PacketBudget b;
  b.bytes_per_packet = bytes_per_packet;
  b.available_bytes = available_bytes;
  b.limit_given = limit_given;
  b.set_up_bytes = set_up.Bytes();
  b.pool_cap = std::max(2 * workload_packets + 4096, min_pool);
  if (available_bytes == 0) return b;
  const uint64_t usable = available_bytes / 100 * (100 - kMarginPercent);
  const uint64_t needed = b.set_up_bytes + min_pool * bytes_per_packet;
  if (needed > usable) {
    return Status::Error("the fabric needs about " + GiB(needed) +
                         " before its first packet moves (" + std::to_string(set_up.link_ends) +
                         " link ends, " + std::to_string(set_up.hosts) + " host ports, " +
                         std::to_string(set_up.switches) + " switches, " +
                         std::to_string(set_up.messages) + " messages; docs/scale.md) and " +
                         Available(limit_given, available_bytes));
  }
  const uint64_t memory_cap = (usable - b.set_up_bytes) / bytes_per_packet;
  if (memory_cap < b.pool_cap) {
    b.pool_cap = memory_cap;
    b.memory_bound = true;
  }
  return b;
}

std::string OutOfPacketsMessage(const PacketBudget& budget, uint64_t in_use, Time now,
                                uint64_t retransmit_timeouts) {
  std::string text = "the packet pool ran out at simulated " + std::to_string(now.ns()) +
                     " ns, holding " + std::to_string(in_use) + " packets (" +
                     GiB(in_use * budget.bytes_per_packet) + " at " +
                     std::to_string(budget.bytes_per_packet) + " bytes each)";
  if (budget.memory_bound) {
    return text + ": all the memory left for packets (" +
           Available(budget.limit_given, budget.available_bytes) + ", about " +
           GiB(budget.set_up_bytes) +
           " of it for the fabric itself); its buffers and wires hold more than that. Give the "
           "run more memory (" +
           (budget.limit_given ? "run.memory_limit_bytes" : "a larger machine") +
           "), or keep fewer packets in flight: congestion control (nic.cc), smaller switch "
           "buffers (switch.buffer_bytes), larger packets (nic.mtu_payload_bytes)";
  }
  // Short of its cap by more than a growth: the kernel refused the next chunk.
  if (in_use + kPacketsPerGrowth < budget.pool_cap) {
    return text + ": the kernel gave no more memory";
  }
  text += ", twice every packet of the workload";
  // The usual cause: a timeout shorter than a round trip, so that every sender resends its whole
  // window again and again.
  if (retransmit_timeouts > 0) {
    text += "; " + std::to_string(retransmit_timeouts) +
            " retransmission timeouts fired, so nic.transport.retransmit_timeout_ns may be "
            "shorter than the fabric's round trip";
  }
  return text;
}

}  // namespace fe::control
