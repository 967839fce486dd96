// The answers software mode's EAL start-up gets without asking the kernel: each must be the one
// the kernel would give (the real access() is the oracle), and the capped sleep the one
// documented.
#include "dataplane/eal_syscalls.h"

#include <gtest/gtest.h>
#include <rte_config.h>
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

extern "C" {
int __real_access(const char* path, int mode);
int __wrap_access(const char* path, int mode);
}

namespace fe::dp {
namespace {

TEST(EalSyscallsTest, HighestListedIndexReadsSysfsLists) {
  EXPECT_EQ(HighestListedIndex("0\n"), 0);
  EXPECT_EQ(HighestListedIndex("0-1\n"), 1);
  EXPECT_EQ(HighestListedIndex("0-3,8-11\n"), 11);
  EXPECT_EQ(HighestListedIndex("12,4-5"), 12);
  EXPECT_EQ(HighestListedIndex(""), -1);
  EXPECT_EQ(HighestListedIndex("\n"), -1);
}

TEST(EalSyscallsTest, OnlyCpusAndNodesAboveThePossibleOnesAreImpossible) {
  EXPECT_TRUE(NamesImpossibleCpuOrNode("/sys/devices/system/cpu/cpu2/topology/core_id", 1, 0));
  EXPECT_FALSE(NamesImpossibleCpuOrNode("/sys/devices/system/cpu/cpu1/topology/core_id", 1, 0));
  EXPECT_TRUE(NamesImpossibleCpuOrNode("/sys/devices/system/node/node1/cpu0", 1, 0));
  EXPECT_TRUE(NamesImpossibleCpuOrNode("/sys/devices/system/node/node0/cpu7", 1, 0));
  EXPECT_FALSE(NamesImpossibleCpuOrNode("/sys/devices/system/node/node0/cpu1", 1, 0));
  // Not a numbered CPU or node: always asked.
  EXPECT_FALSE(NamesImpossibleCpuOrNode("/sys/devices/system/cpu/cpufreq", 1, 0));
  EXPECT_FALSE(NamesImpossibleCpuOrNode("/sys/devices/system/node/node0/cpumap", 1, 0));
  EXPECT_FALSE(NamesImpossibleCpuOrNode("/sys/devices/system/node/possible", 1, 0));
  EXPECT_FALSE(NamesImpossibleCpuOrNode("/dev/hugepages", 1, 0));
  // Unknown limits (-1: the list could not be read) decide nothing.
  EXPECT_FALSE(NamesImpossibleCpuOrNode("/sys/devices/system/cpu/cpu900", -1, -1));
}

// Every path the EAL's CPU detection probes (RTE_MAX_LCORE CPUs on each of RTE_MAX_NUMA_NODES
// nodes, and CPU_SETSIZE core_id files): the wrapped access() answers as the kernel does.
TEST(EalSyscallsTest, WrappedAccessAnswersAsTheKernelForEveryProbedPath) {
  std::vector<std::string> paths;
  for (int cpu = 0; cpu < RTE_MAX_LCORE; ++cpu) {
    for (int node = 0; node < RTE_MAX_NUMA_NODES; ++node) {
      paths.push_back("/sys/devices/system/node/node" + std::to_string(node) + "/cpu" +
                      std::to_string(cpu));
    }
  }
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    paths.push_back("/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/core_id");
  }
  int found = 0;
  for (const std::string& p : paths) {
    errno = 0;
    const int real = __real_access(p.c_str(), F_OK);
    const int real_errno = errno;
    errno = 0;
    const int wrapped = __wrap_access(p.c_str(), F_OK);
    ASSERT_EQ(wrapped, real) << p;
    if (real != 0) {
      ASSERT_EQ(errno, real_errno) << p;
    }
    found += real == 0 ? 1 : 0;
  }
  // Each online CPU has its core_id and its node link: at least one of each exists.
  EXPECT_GE(found, 2);
}

TEST(EalSyscallsTest, CappedSleepIsAtMostATenthOfAMillisecond) {
  const timespec tsc_calibration{.tv_sec = 0, .tv_nsec = 100'000'000};
  const timespec capped = CappedSleep(tsc_calibration, true);
  EXPECT_EQ(capped.tv_sec, 0);
  EXPECT_EQ(capped.tv_nsec, kCappedSleepNs);
  const timespec two_s{.tv_sec = 2, .tv_nsec = 0};
  EXPECT_EQ(CappedSleep(two_s, true).tv_sec, 0);
  EXPECT_EQ(CappedSleep(two_s, true).tv_nsec, kCappedSleepNs);
  const timespec short_sleep{.tv_sec = 0, .tv_nsec = 50'000};
  EXPECT_EQ(CappedSleep(short_sleep, true).tv_nsec, 50'000);
  EXPECT_EQ(CappedSleep(tsc_calibration, false).tv_nsec, 100'000'000);
}

}  // namespace
}  // namespace fe::dp
