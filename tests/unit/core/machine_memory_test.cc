#include "core/machine_memory.h"

#include <gtest/gtest.h>

namespace fe {
namespace {

constexpr char kMeminfo[] =
    "MemTotal:       24576000 kB\n"
    "MemFree:         1000000 kB\n"
    "MemAvailable:   20000000 kB\n";

TEST(MachineMemory, MemAvailableIsReadInKibibytes) {
  EXPECT_EQ(AvailableMemoryBytesOf(kMeminfo, "", ""), uint64_t{20000000} * 1024);
}

TEST(MachineMemory, ACgroupLimitBelowTheMachineWins) {
  // 8 GiB limit, 3 GiB used: 5 GiB left, less than the machine's 19 GiB.
  EXPECT_EQ(AvailableMemoryBytesOf(kMeminfo, "8589934592\n", "3221225472\n"), uint64_t{5} << 30);
}

TEST(MachineMemory, NoCgroupLimitLeavesTheMachinesFigure) {
  // cgroup v2 writes "max"; v1 a figure near 2^63 that exceeds any machine.
  EXPECT_EQ(AvailableMemoryBytesOf(kMeminfo, "max\n", "3221225472\n"), uint64_t{20000000} * 1024);
  EXPECT_EQ(AvailableMemoryBytesOf(kMeminfo, "9223372036854771712\n", "1123885056\n"),
            uint64_t{20000000} * 1024);
}

TEST(MachineMemory, ACgroupOverItsLimitHasNothingLeft) {
  EXPECT_EQ(AvailableMemoryBytesOf(kMeminfo, "1000\n", "2000\n"), 0u);
}

TEST(MachineMemory, UnreadableFiguresGiveZero) {
  EXPECT_EQ(AvailableMemoryBytesOf("", "", ""), 0u);
  EXPECT_EQ(AvailableMemoryBytesOf("MemAvailable: lots\n", "", ""), 0u);
}

TEST(MachineMemory, ThisMachineHasSomeMemory) {
  // Any machine that runs the tests has a MemAvailable line and more than a mebibyte to give.
  EXPECT_GT(AvailableMemoryBytes(), uint64_t{1} << 20);
}

}  // namespace
}  // namespace fe
