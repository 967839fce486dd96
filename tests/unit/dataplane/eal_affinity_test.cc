// Software mode's threads may run on every CPU the process may: the EAL pins the thread that
// starts it to its main lcore's CPU, which every later thread inherits, so without this the lanes
// of a `--cores` run, and emulators run side by side, would all share CPU 0.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>

#include <thread>

namespace {

cpu_set_t ThreadAffinity() {
  cpu_set_t set;
  CPU_ZERO(&set);
  pthread_getaffinity_np(pthread_self(), sizeof(set), &set);
  return set;
}

// Read during static initialisation, before the test environment starts the EAL.
const cpu_set_t kBeforeEal = ThreadAffinity();

TEST(EalAffinity, SoftwareModeKeepsTheStartingThreadsCpus) {
  const cpu_set_t now = ThreadAffinity();
  EXPECT_TRUE(CPU_EQUAL(&now, &kBeforeEal))
      << CPU_COUNT(&kBeforeEal) << " CPUs allowed before the EAL started, " << CPU_COUNT(&now)
      << " after";
}

TEST(EalAffinity, ThreadsStartedAfterTheEalMayRunOnEveryCpu) {
  cpu_set_t lane;
  std::thread([&lane] { lane = ThreadAffinity(); }).join();
  EXPECT_TRUE(CPU_EQUAL(&lane, &kBeforeEal))
      << CPU_COUNT(&kBeforeEal) << " CPUs allowed before the EAL started, " << CPU_COUNT(&lane)
      << " for a thread started after";
}

}  // namespace
