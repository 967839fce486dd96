// Training iterations as messages with dependencies: pipeline-parallel activations and their
// gradients between stages in the 1F1B schedule, tensor-parallel AllReduces inside each stage's
// tensor-parallel group, data-parallel gradient AllReduces in buckets (overlapping the backward
// pass or after it), per-phase compute as delays, and checkpoint bursts to storage hosts.
// docs/workloads.md ("Training iterations and checkpoints") gives the model and its limits.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/status.h"
#include "core/units.h"
#include "traffic/checkpoint.h"
#include "traffic/compute_time.h"
#include "traffic/training_plan.h"
#include "traffic/workload.h"

namespace fe {

struct TrainingSpec {
  std::vector<uint32_t> rank_hosts;  // host of each rank, layout.ranks() of them
  TrainingLayout layout;
  uint32_t microbatches = 1;
  uint32_t iterations = 1;
  uint32_t gradient_buckets = 1;
  uint64_t bucket_bytes = 0;           // each bucket's AllReduce size (data parallel > 1)
  bool overlap = true;                 // buckets start as their gradients are computed
  uint64_t tensor_parallel_bytes = 0;  // per microbatch and pass (tensor parallel > 1)
  uint64_t activation_bytes = 0;       // per rank and microbatch (pipeline parallel > 1)
  uint32_t channels = 1;               // of every collective
  ComputeTime forward;                 // one microbatch on one stage
  ComputeTime backward;
  ComputeTime optimizer;
  std::optional<CheckpointSpec> checkpoint;
  Time start;
};

// The job's messages, all of job 0 (described by `job`), with one Iteration per iteration whose
// compute is the span of the iteration in the workload's compute-only schedule (see
// ComputeOnlyStarts): an iteration ends when its last message is delivered. The spec must be
// valid (control/scenario/validate/validate_training.cc checks scenarios); compute draws come from
// `seed`.
StatusOr<Workload> BuildTraining(const TrainingSpec& spec, Job job, uint64_t seed);

}  // namespace fe
