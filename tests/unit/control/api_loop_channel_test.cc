// The channel between the API and the loop: an API thread's request is answered by the loop's
// next Serve with a snapshot taken after the request, tasks run before it, a loop that does not
// serve makes the request time out, and after Finish the final snapshot answers everything.
#include "control/api/loop_channel.h"

#include <gtest/gtest.h>

#include <thread>

namespace fe::control::api {
namespace {

using std::chrono::milliseconds;

LoopChannel::SnapshotPtr Numbered(double ns, bool with_flows) {
  auto s = std::make_shared<RunSnapshot>();
  s->simulated_time_ns = ns;
  s->has_flows = with_flows;
  return s;
}

TEST(LoopChannelTest, NothingAskedMeansNoWork) {
  LoopChannel c;
  EXPECT_FALSE(c.HasWork());
  int taken = 0;
  c.Serve([&](bool) {
    ++taken;
    return Numbered(0, false);
  });
  EXPECT_EQ(taken, 0);
}

TEST(LoopChannelTest, TheLoopAnswersARequestWithASnapshotTakenAfterIt) {
  LoopChannel c;
  LoopChannel::SnapshotPtr got;
  std::thread api([&] { got = c.Snapshot(true, milliseconds(60000)); });
  // The loop serves until it has answered: each Serve with work takes one snapshot.
  int taken = 0;
  while (taken == 0) {
    c.Serve([&](bool with_flows) {
      ++taken;
      return Numbered(42, with_flows);
    });
    std::this_thread::yield();
  }
  api.join();
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(got->simulated_time_ns, 42);
  EXPECT_TRUE(got->has_flows);
  EXPECT_EQ(taken, 1);
  EXPECT_FALSE(c.HasWork());
}

TEST(LoopChannelTest, ALoopThatDoesNotServeTimesOut) {
  LoopChannel c;
  EXPECT_EQ(c.Snapshot(false, milliseconds(1)), nullptr);
}

TEST(LoopChannelTest, TasksRunBeforeTheSnapshotAndAfterTheEndWithRunOver) {
  LoopChannel c;
  std::vector<std::string> order;
  c.Post([&](bool run_over) { order.push_back(run_over ? "task-late" : "task"); });
  EXPECT_TRUE(c.HasWork());
  c.Serve([&](bool) {
    order.push_back("snapshot");
    return Numbered(1, false);
  });
  // No snapshot was asked: the task ran, no snapshot was taken.
  EXPECT_EQ(order, std::vector<std::string>({"task"}));
  c.Post([&](bool run_over) { order.push_back(run_over ? "task-late" : "task"); });
  c.Finish(Numbered(7, true));
  EXPECT_EQ(order.back(), "task-late");
  // Finished: answered at once from the final snapshot, and tasks run with run_over.
  EXPECT_EQ(c.Snapshot(false, milliseconds(0))->simulated_time_ns, 7);
  c.Post([&](bool run_over) { order.push_back(run_over ? "task-late" : "task"); });
  EXPECT_EQ(order, std::vector<std::string>({"task", "task-late", "task-late"}));
}

TEST(LoopChannelTest, FinishWakesAWaitingRequest) {
  LoopChannel c;
  LoopChannel::SnapshotPtr got;
  std::thread api([&] { got = c.Snapshot(false, milliseconds(60000)); });
  // Finish answers whether the request came before it or after.
  c.Finish(Numbered(9, false));
  api.join();
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(got->simulated_time_ns, 9);
}

}  // namespace
}  // namespace fe::control::api
