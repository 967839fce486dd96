// The parallel layout of a training job and its pipeline schedule: which rank is which stage,
// data-parallel replica and tensor-parallel index, and the order in which a stage runs its
// microbatches' forward and backward passes.
#pragma once

#include <cstdint>
#include <vector>

namespace fe {

// Megatron-LM's rank order: tensor parallel fastest, then data parallel, then pipeline stage, so
// a tensor-parallel group is tp consecutive ranks (placed inside one scale-up domain).
struct TrainingLayout {
  uint32_t dp = 1;
  uint32_t tp = 1;
  uint32_t pp = 1;

  uint32_t ranks() const { return dp * tp * pp; }
  uint32_t Rank(uint32_t stage, uint32_t replica, uint32_t tp_index) const {
    return (stage * dp + replica) * tp + tp_index;
  }
};

// One compute step of a stage: microbatch `microbatch`'s forward or backward pass.
struct PipelineStep {
  bool forward = true;
  uint32_t microbatch = 0;
};

// The 1F1B (PipeDream-Flush) order of stage `stage` of `stages` over `microbatches`: min(stages
// - stage - 1, microbatches) forwards to fill the pipeline, then one forward and one backward in
// turn, then the remaining backwards. With equal per-microbatch times f and b it ends after
// (microbatches + stages - 1) x (f + b), as GPipe does, while holding fewer activations.
std::vector<PipelineStep> OneForwardOneBackward(uint32_t stage, uint32_t stages,
                                                uint32_t microbatches);

}  // namespace fe
