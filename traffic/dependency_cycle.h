// Finds a cycle among a workload's dependencies, so that an error can name it whole
// (CheckDependencies says only that one exists).
#pragma once

#include <cstdint>
#include <vector>

#include "traffic/workload.h"

namespace fe {

// The messages of one dependency cycle in order, each waiting for the next and the last for the
// first; empty if there is none. Every dependency must name a message of `w`.
std::vector<uint32_t> DependencyCycle(const Workload& w);

}  // namespace fe
