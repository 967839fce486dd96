#include "control/process/process_clock.h"

#include <chrono>

namespace fe::control {
namespace {

using Clock = std::chrono::steady_clock;

// Initialised before main, with the program's other statics.
const Clock::time_point kProcessStart = Clock::now();

}  // namespace

double WallSecondsSinceProcessStart() {
  return std::chrono::duration<double>(Clock::now() - kProcessStart).count();
}

}  // namespace fe::control
