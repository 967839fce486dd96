// The sweep's child processes: each child's end as it happened (exit code, signal, a program
// that cannot run, a log that cannot be opened), its output in its log, and never more than
// `jobs` children at once.
#include "control/sweep/child_processes.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fe::control {
namespace {

namespace fs = std::filesystem;

class ChildProcessesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/child_processes_test.XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  ChildCommand Shell(const std::string& script, const std::string& log) const {
    return ChildCommand{{"/bin/sh", "-c", script}, dir_ + "/" + log};
  }
  std::string Read(const std::string& name) const {
    std::ifstream in(dir_ + "/" + name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  std::string dir_;
};

TEST_F(ChildProcessesTest, EachEndIsReportedAsItHappened) {
  const std::vector<ChildCommand> commands = {
      Shell("echo out; echo err >&2; exit 3", "a.log"),
      Shell("kill -KILL $$", "b.log"),
      ChildCommand{{dir_ + "/no-such-program"}, dir_ + "/c.log"},
      Shell("exit 0", "missing-dir/d.log"),
  };
  std::vector<size_t> order;
  int stop_signal = -1;
  const std::vector<ChildExit> exits = RunChildren(
      commands, 2, [&](size_t i, const ChildExit&, size_t) { order.push_back(i); }, &stop_signal);
  ASSERT_EQ(exits.size(), 4u);
  EXPECT_EQ(stop_signal, 0);
  EXPECT_EQ(order.size(), 4u);  // each reported once

  EXPECT_TRUE(exits[0].started);
  EXPECT_EQ(exits[0].exit_code, 3);
  EXPECT_EQ(exits[0].signal, 0);
  EXPECT_EQ(Read("a.log"), "out\nerr\n");  // stdout and stderr both in the log

  EXPECT_TRUE(exits[1].started);
  EXPECT_EQ(exits[1].signal, SIGKILL);

  // exec failed: 127, as a shell reports a command it cannot run, and the log says why.
  EXPECT_EQ(exits[2].exit_code, 127);
  EXPECT_EQ(Read("c.log"), "cannot run " + dir_ + "/no-such-program: No such file or directory\n");

  EXPECT_FALSE(exits[3].started);
  EXPECT_EQ(exits[3].error,
            "cannot open " + dir_ + "/missing-dir/d.log: No such file or directory");
}

TEST_F(ChildProcessesTest, NeverMoreThanJobsAtOnce) {
  // Each child holds a lock (mkdir is atomic) for its whole life and fails if it cannot take it:
  // with one job at a time every child gets it.
  std::vector<ChildCommand> commands;
  for (int i = 0; i < 4; ++i) {
    commands.push_back(Shell("mkdir " + dir_ + "/lock || exit 9; echo " + std::to_string(i) +
                                 " >>" + dir_ + "/order; rmdir " + dir_ + "/lock",
                             "log" + std::to_string(i)));
  }
  size_t most_running = 0;
  int stop_signal = -1;
  const std::vector<ChildExit> exits = RunChildren(
      commands, 1,
      [&](size_t, const ChildExit&, size_t running) {
        most_running = std::max(most_running, running);
      },
      &stop_signal);
  for (const ChildExit& e : exits) EXPECT_EQ(e.exit_code, 0);
  EXPECT_EQ(most_running, 0u);               // when one ends, none other is running
  EXPECT_EQ(Read("order"), "0\n1\n2\n3\n");  // started in the order given
}

}  // namespace
}  // namespace fe::control
