#include "traffic/trace/file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace fe {
namespace {

namespace fs = std::filesystem;

class TraceFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("trace_file_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(TraceFileTest, ReadsARegularFileWhole) {
  const std::string path = (dir_ / "t.cm").string();
  std::ofstream(path) << "Nodes 2\nConnections 0\n";
  StatusOr<std::string> text = ReadTraceText(path);
  ASSERT_TRUE(text.ok()) << text.status().message();
  EXPECT_EQ(text.value(), "Nodes 2\nConnections 0\n");
}

TEST_F(TraceFileTest, RefusesWhatIsNotARegularFile) {
  EXPECT_FALSE(ReadTraceText((dir_ / "missing.cm").string()).ok());
  StatusOr<std::string> d = ReadTraceText(dir_.string());
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("no such regular file"), std::string::npos);
}

TEST_F(TraceFileTest, RefusesAFileOverTheCapBeforeReadingIt) {
  const fs::path big = dir_ / "big.csv";
  std::ofstream(big).close();
  fs::resize_file(big, kMaxTraceFileBytes + 1);  // sparse: no disk used
  StatusOr<std::string> t = ReadTraceText(big.string());
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("67108865 bytes, more than the 64 MiB"), std::string::npos)
      << t.status().message();
}

TEST(TraceParamsTest, NodesLandOnHostsByOffsetOrList) {
  TraceParams p;
  p.hosts = 16;
  p.host_offset = 4;
  uint32_t host = 0;
  std::string reason;
  ASSERT_TRUE(TraceHost(p, 11, &host, &reason));
  EXPECT_EQ(host, 15u);
  EXPECT_FALSE(TraceHost(p, 12, &host, &reason));
  EXPECT_EQ(reason, "node 12 runs on host 16, but the topology has 16 hosts (0 to 15)");
  p.node_hosts = {9, 2};
  ASSERT_TRUE(TraceHost(p, 1, &host, &reason));
  EXPECT_EQ(host, 2u);
  EXPECT_FALSE(TraceHost(p, 2, &host, &reason));
}

TEST(TraceParamsTest, ScaledTimesRoundToThePicosecondAndStopAtTheLimit) {
  TraceParams p;
  Time t;
  std::string reason;
  ASSERT_TRUE(ScaledTraceTime(p, 7, "start", &t, &reason));
  EXPECT_EQ(t, Time::FromPs(7));
  p.time_scale = 1.0 / 3;
  ASSERT_TRUE(ScaledTraceTime(p, 5, "start", &t, &reason));
  EXPECT_EQ(t, Time::FromPs(2));  // 1.67 ps
  p.time_scale = 1;
  p.max_time = Time::FromNs(1);
  EXPECT_TRUE(ScaledTraceTime(p, 1000, "start", &t, &reason));
  EXPECT_FALSE(ScaledTraceTime(p, 1001, "start", &t, &reason));
  EXPECT_EQ(reason, "start is past the latest time a run may reach, 1 ns");
}

}  // namespace
}  // namespace fe
