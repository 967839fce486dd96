// Checkpoint bursts: every rank writes its shard of the model and optimizer state to a storage
// host at once, many writers to few storage hosts.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "traffic/ready_at.h"
#include "traffic/workload.h"

namespace fe {

struct CheckpointSpec {
  uint32_t every_iterations = 0;
  uint64_t shard_bytes = 0;
  std::vector<uint32_t> storage_hosts;  // rank r writes to storage_hosts[r % size]

  // Whether iteration `iteration` (0-based) ends with a checkpoint.
  bool After(uint32_t iteration) const { return (iteration + 1) % every_iterations == 0; }
};

// Appends rank r's write of its shard from rank_hosts[r], starting at ready[r], as a message of
// `job` and `iteration`; returns the write of each rank.
std::vector<uint32_t> AppendCheckpoint(const CheckpointSpec& spec,
                                       std::span<const uint32_t> rank_hosts,
                                       std::span<const ReadyAt> ready, uint32_t job,
                                       uint32_t iteration, Workload* w);

}  // namespace fe
