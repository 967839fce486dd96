// SIGINT/SIGTERM become a stop request the loop polls, instead of killing the process.
#include "control/process/stop_signals.h"

#include <gtest/gtest.h>
#include <pthread.h>

#include <csignal>

namespace fe::control {
namespace {

TEST(StopSignalsTest, SigtermIsReadAsARequestAndTheMaskIsRestored) {
  {
    StopSignals stop;
    ASSERT_TRUE(stop.ok());
    EXPECT_FALSE(stop.Requested());
    // Blocked, so it waits for the signalfd instead of terminating the test. Sent to this thread:
    // threads started before the mask was set (this binary's EAL threads) would take a signal
    // sent to the process, which is why serve sets it up before starting the EAL.
    ASSERT_EQ(pthread_kill(pthread_self(), SIGTERM), 0);
    EXPECT_TRUE(stop.Requested());
    EXPECT_EQ(stop.signal_number(), SIGTERM);
    EXPECT_TRUE(stop.Requested());  // stays requested
  }
  sigset_t now;
  ASSERT_EQ(pthread_sigmask(SIG_BLOCK, nullptr, &now), 0);
  EXPECT_FALSE(sigismember(&now, SIGTERM));
  EXPECT_FALSE(sigismember(&now, SIGINT));
}

}  // namespace
}  // namespace fe::control
