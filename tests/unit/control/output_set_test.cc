// A run's outputs as a set (control/process/output_set.h): nothing of the set is in the output
// directory until all of it is, and what a failed or killed run staged never stays behind.
#include "control/process/output_set.h"

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <gtest/gtest.h>

namespace fe::control {
namespace {

namespace fs = std::filesystem;

std::set<std::string> Listing(const fs::path& dir) {
  std::set<std::string> names;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    names.insert(e.path().filename().string());
  }
  return names;
}

class OutputSetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("output_set_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(OutputSetTest, NothingIsInPlaceUntilTheCommit) {
  StatusOr<OutputSet> set = OutputSet::Open(dir_.string());
  ASSERT_TRUE(set.ok()) << set.status().message();
  ASSERT_TRUE(set->Write("summary.json", "{}\n").ok());
  ASSERT_TRUE(set->Write("flows.csv", "id\n").ok());
  // Staged: the directory holds the staging directory alone.
  const std::set<std::string> staged = Listing(dir_);
  ASSERT_EQ(staged.size(), 1u);
  EXPECT_EQ(staged.begin()->rfind(kStagingPrefix, 0), 0u);
  ASSERT_TRUE(set->Commit().ok());
  EXPECT_EQ(Listing(dir_), (std::set<std::string>{"flows.csv", "summary.json"}));
}

TEST_F(OutputSetTest, ASetNeverCommittedLeavesNothing) {
  {
    StatusOr<OutputSet> set = OutputSet::Open(dir_.string());
    ASSERT_TRUE(set.ok());
    ASSERT_TRUE(set->Write("flows.csv", "id\n").ok());
    // A later write failed (a full disk): the run returns without committing.
  }
  EXPECT_TRUE(Listing(dir_).empty());
}

TEST_F(OutputSetTest, StagingOfADeadProcessIsRemovedAndALiveOnesKept) {
  // A process that has exited, and been reaped: its pid names no process now.
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);
  const fs::path dead = dir_ / (std::string(kStagingPrefix) + std::to_string(child) + "-abcdef");
  const fs::path live =
      dir_ / (std::string(kStagingPrefix) + std::to_string(::getpid()) + "-abcdef");
  for (const fs::path& d : {dead, live}) {
    fs::create_directories(d);
    std::ofstream(d / "summary.json") << "{}";
  }
  RemoveAbandonedStaging(dir_.string());
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(live / "summary.json"));
}

}  // namespace
}  // namespace fe::control
