#include "traffic/training_plan.h"

#include <algorithm>

namespace fe {

std::vector<PipelineStep> OneForwardOneBackward(uint32_t stage, uint32_t stages,
                                                uint32_t microbatches) {
  const uint32_t warmup = std::min(stages - stage - 1, microbatches);
  std::vector<PipelineStep> steps;
  steps.reserve(2 * size_t{microbatches});
  uint32_t forwards = 0, backwards = 0;
  while (forwards < warmup) steps.push_back({true, forwards++});
  while (forwards < microbatches) {
    steps.push_back({true, forwards++});
    steps.push_back({false, backwards++});
  }
  while (backwards < microbatches) steps.push_back({false, backwards++});
  return steps;
}

}  // namespace fe
