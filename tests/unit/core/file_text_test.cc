// Files an input names are read through one non-blocking descriptor: a pseudo-file that stat
// calls regular (size 0), a FIFO and a file past the cap are refused, without blocking.
#include "core/file_text.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace fe {
namespace {

namespace fs = std::filesystem;

class FileTextTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("file_text_test." + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  fs::path dir_;
};

TEST_F(FileTextTest, ReadsARegularFileWhole) {
  const std::string path = Write("a.csv", "x,y\n1,2\n");
  StatusOr<std::string> text = ReadCappedFile(path, 1024, "a trace file", "a.csv");
  ASSERT_TRUE(text.ok()) << text.status().message();
  EXPECT_EQ(*text, "x,y\n1,2\n");
}

TEST_F(FileTextTest, RefusesAProcFileThatStatCallsRegular) {
  // /proc/self/status is a regular file of size 0 to stat, and has text when read; /proc/kmsg,
  // of the same kind, blocks in read() until the kernel logs something.
  struct stat st;
  ASSERT_EQ(::stat("/proc/self/status", &st), 0);
  ASSERT_TRUE(S_ISREG(st.st_mode));
  StatusOr<std::string> text =
      ReadCappedFile("/proc/self/status", 1 << 20, "a flow-size CDF file", "/proc/self/status");
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().message(),
            "/proc/self/status: a file of /proc or /sys, not a flow-size CDF file");
  StatusOr<std::string> named = ReadCommandLineFile("/sys/kernel/mm/transparent_hugepage/enabled",
                                                    1 << 20, "a scenario file", "a text file");
  if (fs::exists("/sys/kernel/mm/transparent_hugepage/enabled")) {
    ASSERT_FALSE(named.ok());
    EXPECT_NE(named.status().message().find("a file of /proc or /sys"), std::string::npos);
  }
}

TEST_F(FileTextTest, RefusesAFifoWithoutWaitingForAWriter) {
  // Opened for reading without O_NONBLOCK, a FIFO with no writer blocks the open for ever.
  const std::string fifo = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  StatusOr<std::string> text = ReadCappedFile(fifo, 1024, "a trace file", "fifo");
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.status().message().find("no such regular file"), std::string::npos);
  StatusOr<std::string> named = ReadCommandLineFile(fifo, 1024, "a scenario file", "a text file");
  ASSERT_FALSE(named.ok());
  EXPECT_EQ(named.status().message(),
            fifo + ": not a regular file (a FIFO, socket or device); a text file");
}

TEST_F(FileTextTest, RefusesAFileOneBytePastTheCap) {
  constexpr int64_t kCap = 1 << 20;
  const std::string path = Write("big", std::string(kCap + 1, 'x'));
  StatusOr<std::string> text = ReadCappedFile(path, kCap, "a trace file", "big");
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().message(),
            "big has 1048577 bytes, more than the 1 MiB a trace file may have");
  EXPECT_TRUE(
      ReadCappedFile(Write("fits", std::string(kCap, 'x')), kCap, "a trace file", "fits").ok());
}

}  // namespace
}  // namespace fe
