#include "control/scenario/training_section.h"

#include <set>

#include "control/scenario/collective_section.h"
#include "core/random.h"
#include "core/units.h"
#include "topology/locality.h"
#include "traffic/placement.h"
#include "traffic/training.h"

namespace fe::control {

ComputeTime ComputeTimeOf(const fabric_emu::ComputeTime& c) {
  ComputeTime out;
  switch (c.distribution()) {
    case fabric_emu::ComputeTime::FIXED:
      out.distribution = ComputeTime::Distribution::kFixed;
      break;
    case fabric_emu::ComputeTime::NORMAL:
      out.distribution = ComputeTime::Distribution::kNormal;
      break;
    case fabric_emu::ComputeTime::LOGNORMAL:
      out.distribution = ComputeTime::Distribution::kLognormal;
      break;
  }
  out.mean = Time::FromNs(c.mean_ns());
  out.stddev = Time::FromNs(c.stddev_ns());
  out.min = Time::FromNs(c.min_ns());
  return out;
}

StatusOr<std::vector<uint32_t>> TrainingRankHosts(const fabric_emu::Training& t,
                                                  const topo::Graph& graph, uint64_t seed) {
  std::vector<uint32_t> candidates(t.host().begin(), t.host().end());
  if (candidates.empty()) {
    const std::set<int32_t> storage(t.checkpoint().storage_hosts().begin(),
                                    t.checkpoint().storage_hosts().end());
    for (uint32_t h = 0; h < graph.num_hosts(); ++h) {
      if (storage.count(static_cast<int32_t>(h)) == 0) candidates.push_back(h);
    }
  }
  const auto tp = static_cast<uint32_t>(t.tensor_parallel());
  const uint64_t ranks = uint64_t{tp} * static_cast<uint32_t>(t.data_parallel()) *
                         static_cast<uint32_t>(t.pipeline_parallel());
  if (ranks > candidates.size()) {
    return Status::Error(
        "data_parallel x tensor_parallel x pipeline_parallel = " + std::to_string(ranks) +
        " ranks, but " + std::to_string(candidates.size()) + " hosts to place them on");
  }
  const std::vector<uint32_t> group = topo::LocalityGroups(graph);
  std::vector<uint32_t> hosts =
      PlaceRanks(PlacementOf(t.placement()), candidates, static_cast<uint32_t>(ranks), group, seed);
  for (uint32_t r = 0; r < hosts.size(); ++r) {
    const uint32_t first = r - r % tp;
    if (group[hosts[r]] == group[hosts[first]]) continue;
    return Status::Error("rank " + std::to_string(r) + " (host " + std::to_string(hosts[r]) +
                         ") is in the tensor-parallel group of rank " + std::to_string(first) +
                         " (host " + std::to_string(hosts[first]) +
                         ") but not in its scale-up domain (or, without domains, behind its "
                         "switch): a tensor-parallel group is tensor_parallel consecutive ranks "
                         "inside one");
  }
  return hosts;
}

StatusOr<Workload> TrainingWorkload(const fabric_emu::Training& t, const topo::Graph& graph,
                                    uint64_t seed, const std::string& scenario_dir) {
  StatusOr<std::vector<uint32_t>> hosts = TrainingRankHosts(t, graph, seed);
  if (!hosts.ok()) return hosts.status();
  TrainingSpec spec;
  spec.rank_hosts = std::move(hosts).value();
  spec.layout = {static_cast<uint32_t>(t.data_parallel()),
                 static_cast<uint32_t>(t.tensor_parallel()),
                 static_cast<uint32_t>(t.pipeline_parallel())};
  spec.microbatches = static_cast<uint32_t>(t.microbatches());
  spec.iterations = static_cast<uint32_t>(t.iterations());
  spec.gradient_buckets = static_cast<uint32_t>(t.gradient_buckets());
  spec.bucket_bytes = static_cast<uint64_t>(t.bucket_bytes());
  spec.overlap = t.overlap();
  spec.tensor_parallel_bytes = static_cast<uint64_t>(t.tensor_parallel_bytes());
  spec.activation_bytes = static_cast<uint64_t>(t.activation_bytes());
  spec.channels = static_cast<uint32_t>(t.channels());
  spec.forward = ComputeTimeOf(t.forward());
  spec.backward = ComputeTimeOf(t.backward());
  spec.optimizer = ComputeTimeOf(t.optimizer());
  if (t.has_checkpoint()) {
    const fabric_emu::Checkpoint& c = t.checkpoint();
    spec.checkpoint = CheckpointSpec{static_cast<uint32_t>(c.every_iterations()),
                                     static_cast<uint64_t>(c.shard_bytes()),
                                     {c.storage_hosts().begin(), c.storage_hosts().end()}};
  }
  spec.start = Time::FromNs(t.start_ns());
  // Compute draws take a stream of their own, apart from the placement's.
  return BuildTraining(spec, Job{"", "training"}, SplitMix64(seed).NextU64());
}

}  // namespace fe::control
