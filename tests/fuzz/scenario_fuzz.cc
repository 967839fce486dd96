// Fuzz target: arbitrary bytes as a scenario file, through the loader and validator that
// `fabric-emu validate` runs. Every input must end in a scenario or in errors; a crash, a hang,
// a leak or undefined behaviour is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "control/scenario/scenario_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // The name locates the file: run at the source root (as scripts/fuzz.sh does), the relative
  // trace and CDF paths of the shipped scenarios, the seeds, resolve to their files.
  (void)fe::control::LoadScenarioText(text, "scenarios/fuzz.textproto");
  return 0;
}
