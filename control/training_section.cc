#include "control/training_section.h"

#include "control/emulation.h"
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
  out.mean = TimeFromNs(c.mean_ns());
  out.stddev = TimeFromNs(c.stddev_ns());
  out.min = TimeFromNs(c.min_ns());
  return out;
}

StatusOr<Workload> TrainingWorkload(const fabric_emu::Training& t, const topo::Graph& graph,
                                    uint64_t seed, const std::string& scenario_dir) {
  TrainingSpec spec;
  spec.rank_hosts.assign(t.rank_hosts().begin(), t.rank_hosts().end());
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
  spec.start = TimeFromNs(t.start_ns());
  return BuildTraining(spec, Job{"", "training"}, seed);
}

}  // namespace fe::control
