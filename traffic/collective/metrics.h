// What a run made of each collective operation, as nccl-tests reports it: the time from the first
// message's start to the last byte's delivery, the algorithm bandwidth (size / time) and the bus
// bandwidth (algbw times the operation's factor, nccl-tests' doc/PERFORMANCE.md), which compares
// with the link rate whatever the rank count.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/units.h"
#include "traffic/workload.h"

namespace fe {

struct CollectiveMeasure {
  uint32_t op = 0;                // index in Workload::ops
  Time start = Time::Infinite();  // its first message started
  Time end = Time::Infinite();    // its last message was delivered
  bool complete = false;          // every message delivered (and it has messages)
  double algbw_gbps = 0;          // size_bytes x 8 / time, in Gb/s; 0 unless complete
  double busbw_gbps = 0;

  Time time() const { return end - start; }
};

// nccl-tests' bus bandwidth factors over n ranks: AllReduce 2(n-1)/n; AllGather, ReduceScatter and
// AllToAll (n-1)/n; Broadcast and SendRecv 1.
double BusBandwidthFactor(CollectiveKind kind, uint32_t ranks);

// One measure per operation of `w`, in order. outcomes: by message id.
std::vector<CollectiveMeasure> MeasureCollectives(const Workload& w,
                                                  std::span<const MessageOutcome> outcomes);

}  // namespace fe
