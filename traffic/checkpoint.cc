#include "traffic/checkpoint.h"

namespace fe {

std::vector<uint32_t> AppendCheckpoint(const CheckpointSpec& spec,
                                       std::span<const uint32_t> rank_hosts,
                                       std::span<const ReadyAt> ready, uint32_t job,
                                       uint32_t iteration, Workload* w) {
  std::vector<uint32_t> writes(rank_hosts.size());
  for (size_t r = 0; r < rank_hosts.size(); ++r) {
    Flow write;
    write.src_host = rank_hosts[r];
    write.dst_host = spec.storage_hosts[r % spec.storage_hosts.size()];
    write.size_bytes = spec.shard_bytes;
    writes[r] = ready[r].Send(write, job, kNoIndex, iteration, w);
  }
  return writes;
}

}  // namespace fe
