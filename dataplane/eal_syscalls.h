// Two system calls of DPDK's EAL start-up, answered faster where the answer is known (the link
// wraps the statically linked DPDK's access() and nanosleep(); cmake/dpdk_static.cmake).
//
// - access(): the EAL looks for every CPU up to 1,024 and every NUMA node up to 32 in sysfs,
//   some 5,000 failed look-ups (15 ms on a 2-vCPU VM). A CPU or node the kernel lists as not
//   possible has no sysfs entry, so those look-ups are answered ENOENT without asking.
// - nanosleep(): with no TSC rate from CPUID or an MSR, the EAL measures it over a 100 ms sleep.
//   Software mode never reads the TSC rate (virtual time), so while it starts the EAL a sleep
//   is cut to kCappedSleepNs; real-time mode keeps the full measurement.
#pragma once

#include <time.h>

#include <cstdint>
#include <string_view>

namespace fe::dp {

// Long enough for the estimate still to be right to its 10 MHz rounding (the clock reads around
// the sleep err by some 100 ns: 0.1% of 0.1 ms), should anything read it; 1 ms cost 0.9 ms more
// of every software run's start-up.
inline constexpr int64_t kCappedSleepNs = 100'000;

// Turns the sleep cap on or off (off at start).
void CapEalSleeps(bool on);

// The sleep nanosleep() really does for `requested`: at most kCappedSleepNs when capped.
timespec CappedSleep(const timespec& requested, bool capped);

// Highest index of a list such as /sys/devices/system/cpu/possible ("0-3,8-11\n": 11); -1 if
// the text holds none.
int HighestListedIndex(std::string_view list);

// True when `path` names a sysfs entry of a CPU above max_cpu or of a NUMA node above max_node,
// which cannot exist.
bool NamesImpossibleCpuOrNode(std::string_view path, int max_cpu, int max_node);

}  // namespace fe::dp
