// The run's output directory (control/process/output_dir.h): a re-run leaves only its own outputs,
// a symlink at an output's name is replaced and never written through, and a directory the run
// cannot use is refused before anything is removed or written.
#include "control/process/output_dir.h"

#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace fe::control {
namespace {

namespace fs = std::filesystem;

std::string Read(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

void Put(const fs::path& p, const std::string& contents) {
  std::ofstream(p, std::ios::binary) << contents;
}

std::set<std::string> Listing(const fs::path& dir) {
  std::set<std::string> names;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    names.insert(e.path().filename().string());
  }
  return names;
}

class OutputDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) /
            ("output_dir_" +
             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "out");
    fs::create_directories(root_ / "outside");
  }
  void TearDown() override {
    fs::permissions(root_ / "out", fs::perms::owner_all, fs::perm_options::add);
    fs::remove_all(root_);
  }
  std::string out() const { return (root_ / "out").string(); }
  fs::path root_;
};

TEST_F(OutputDirTest, RerunWithoutRateSamplingLeavesNoOutputOfTheRunBefore) {
  // The run before wrote every output and a capture; a file of the user's is not an output.
  for (std::string_view name : kRunOutputNames) Put(root_ / "out" / name, "old run\n");
  Put(root_ / "out" / "fabric.pcapng", "old capture");
  Put(root_ / "out" / "notes.txt", "mine");

  ASSERT_TRUE(PrepareOutputDir(out(), "fabric.pcapng").ok());
  // This run samples no rates: it writes the summary and flows.csv only.
  ASSERT_TRUE(WriteFileAtomically(out() + "/summary.json", "{}\n").ok());
  ASSERT_TRUE(WriteFileAtomically(out() + "/flows.csv", "id\n").ok());

  // Exactly the new run's two files and the user's own: no rates.csv or other output of the run
  // before, and no temporary left behind by the writes.
  EXPECT_EQ(Listing(root_ / "out"),
            (std::set<std::string>{"flows.csv", "notes.txt", "summary.json"}));
  EXPECT_EQ(Read(root_ / "out" / "summary.json"), "{}\n");
  EXPECT_EQ(Read(root_ / "out" / "notes.txt"), "mine");
}

TEST_F(OutputDirTest, SymlinkAtAnOutputNameIsReplacedAndItsTargetUntouched) {
  const fs::path target = root_ / "outside" / "precious.csv";
  Put(target, "precious\n");
  fs::create_symlink(target, root_ / "out" / "flows.csv");

  ASSERT_TRUE(WriteFileAtomically(out() + "/flows.csv", "id,fct_ns\n").ok());

  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(root_ / "out" / "flows.csv")));
  EXPECT_EQ(Read(root_ / "out" / "flows.csv"), "id,fct_ns\n");
  EXPECT_EQ(Read(target), "precious\n");
}

TEST_F(OutputDirTest, PartsAreWrittenInOrderAsOneFile) {
  ASSERT_TRUE(PrepareOutputDir(out(), "").ok());
  // An empty part among them writes nothing, as an empty file's contents would.
  const std::array<std::string_view, 4> parts = {"{\n  \"a\": ", "[1, 2]", "", "\n}\n"};

  ASSERT_TRUE(WriteFileAtomically(out() + "/summary.json", parts).ok());

  EXPECT_EQ(Read(root_ / "out" / "summary.json"), "{\n  \"a\": [1, 2]\n}\n");
  EXPECT_EQ(Listing(root_ / "out"), (std::set<std::string>{"summary.json"}));
}

TEST_F(OutputDirTest, StaleSymlinkIsRemovedNotItsTarget) {
  const fs::path target = root_ / "outside" / "rates.csv";
  Put(target, "precious\n");
  fs::create_symlink(target, root_ / "out" / "rates.csv");
  // A capture planted as a link: removed before the run opens its own.
  fs::create_symlink(target, root_ / "out" / "fabric.pcapng");

  ASSERT_TRUE(PrepareOutputDir(out(), "fabric.pcapng").ok());

  EXPECT_FALSE(fs::exists(fs::symlink_status(root_ / "out" / "rates.csv")));
  EXPECT_FALSE(fs::exists(fs::symlink_status(root_ / "out" / "fabric.pcapng")));
  EXPECT_EQ(Read(target), "precious\n");
}

TEST_F(OutputDirTest, DirectoryNamedFlowsCsvIsRefusedBeforeAnythingIsRemoved) {
  fs::create_directory(root_ / "out" / "flows.csv");
  Put(root_ / "out" / "rates.csv", "old run\n");

  const Status s = PrepareOutputDir(out(), "");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(out() + "/flows.csv exists and is a directory"), std::string::npos)
      << s.message();
  // Refused as a whole: the run before's files stay as they were.
  EXPECT_EQ(Read(root_ / "out" / "rates.csv"), "old run\n");
}

TEST_F(OutputDirTest, DirectoryNamedAsTheCaptureIsRefused) {
  fs::create_directory(root_ / "out" / "fabric.pcapng");
  const Status s = PrepareOutputDir(out(), "fabric.pcapng");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("fabric.pcapng exists and is a directory"), std::string::npos)
      << s.message();
}

TEST_F(OutputDirTest, DirectoryWithoutWritePermissionIsRefused) {
  // Permission bits do not bind root; the /proc case below covers a directory root cannot write.
  if (::geteuid() == 0) GTEST_SKIP() << "root ignores permission bits";
  Put(root_ / "out" / "summary.json", "old run\n");
  fs::permissions(root_ / "out", fs::perms::owner_read | fs::perms::owner_exec);
  const Status s = PrepareOutputDir(out(), "");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(out() + " is not writable"), std::string::npos) << s.message();
}

TEST_F(OutputDirTest, DirectoryNoFileCanBeCreatedInIsRefused) {
  // /proc/self exists and is a directory, yet no process, root included, creates a file in it.
  const Status s = PrepareOutputDir("/proc/self", "");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("/proc/self is not writable"), std::string::npos) << s.message();
}

TEST_F(OutputDirTest, PathThroughARegularFileIsRefused) {
  Put(root_ / "file", "");
  const std::string below = (root_ / "file" / "out").string();
  const Status s = PrepareOutputDir(below, "");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("cannot create output directory " + below), std::string::npos)
      << s.message();
  const Status itself = PrepareOutputDir((root_ / "file").string(), "");
  ASSERT_FALSE(itself.ok());
  EXPECT_NE(itself.message().find((root_ / "file").string()), std::string::npos)
      << itself.message();
}

TEST_F(OutputDirTest, WriteIntoAMissingDirectoryFailsWithThePath) {
  const std::string path = (root_ / "missing" / "summary.json").string();
  const Status s = WriteFileAtomically(path, "{}\n");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("cannot write " + path), std::string::npos) << s.message();
}

}  // namespace
}  // namespace fe::control
