// DPDK's EAL, started by the program itself. Software mode needs no hugepages, no PCI devices and
// no shared runtime files, so a user never types EAL arguments and several emulators (or tests)
// can run side by side.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace fe::dp {

struct EalOptions {
  // DPDK's heap (anonymous memory, not hugepages). The EAL describes each of its 4 KB pages at
  // start-up (48 bytes and a few ns a page), so it costs time and memory even unused.
  int memory_mb = 64;
  std::vector<std::string> vdevs;  // e.g. "net_af_packet0,iface=veth0" (real-time mode)
  std::string lcores = "0";
  // Software mode: the clock is virtual and nothing reads the TSC rate, so the EAL's 100 ms
  // measurement of it is cut to 0.1 ms (dataplane/eal_syscalls.h). Real-time mode leaves it off.
  bool quick_tsc_estimate = false;
  // Software mode: the calling thread keeps the CPUs it may run on. The EAL pins it to the main
  // lcore's CPU (CPU 0 for `-l 0`) and every thread it starts later inherits that: the lanes of
  // a `--cores` run would share one CPU, and so would emulators or tests run side by side.
  // Real-time mode leaves the pinning: its lcores poll their ports on CPUs of their own.
  bool keep_thread_affinity = false;
  // Given: replaces every default above (a user who knows EAL may say exactly what they want).
  std::vector<std::string> raw_args;
};

// The software-mode argument list for the options (without argv[0]).
std::vector<std::string> EalArgs(const EalOptions& options);

// EAL arguments as a user writes them in one string, split at white space.
std::vector<std::string> SplitEalArgs(const std::string& text);

// Why `args` cannot start the emulator's EAL, or "" when they can. The emulator is always
// DPDK's primary process: as a secondary (--proc-type) the EAL would wait for a primary, for
// ever when none runs, deaf to Ctrl-C, which the emulator holds back until the EAL is up.
std::string RefusedEalArgs(const std::vector<std::string>& args);

// What keeps hugepages from the EAL, read from /proc/meminfo and /proc/mounts, with what to do
// about it; "" when some are reserved and a hugetlbfs is mounted.
std::string HugepageProblem(std::string_view meminfo, std::string_view mounts);

// Starts the EAL once per process; later calls return the first call's status, because DPDK
// cannot re-initialise (its state is process-wide by design). When arguments without --no-huge
// fail, the error says what keeps hugepages away (HugepageProblem).
Status InitEal(const EalOptions& options);

}  // namespace fe::dp
