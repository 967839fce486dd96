// How much memory this process may still take, read once before a large allocation plan: the
// kernel's estimate of what it can give without swapping (MemAvailable), or, inside a memory
// cgroup, its limit less its use where that is lower.
#pragma once

#include <cstdint>
#include <string_view>

namespace fe {

// Bytes available now; 0 when no figure could be read (a kernel without /proc).
uint64_t AvailableMemoryBytes();

// The figures behind AvailableMemoryBytes, from the texts of /proc/meminfo and of the cgroup's
// limit and usage files (empty when absent): exposed for tests.
uint64_t AvailableMemoryBytesOf(std::string_view meminfo, std::string_view cgroup_limit,
                                std::string_view cgroup_usage);

}  // namespace fe
