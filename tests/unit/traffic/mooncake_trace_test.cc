#include "traffic/trace/mooncake.h"

#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <string>

#include "mooncake_sample.h"

namespace fe {
namespace {

constexpr uint32_t kBlock = 512;

TEST(MooncakeTraceTest, ReadsTheShippedSample) {
  auto trace = ReadMooncakeTrace(MooncakeSamplePath(), "", kBlock);
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  ASSERT_EQ(trace->requests.size(), 200u);
  // The first line: {"timestamp": 0, "input_length": 6758, "output_length": 500,
  // "hash_ids": [0, 1, ..., 13]}: ceil(6758 / 512) = 14 blocks.
  const MooncakeRequest& first = trace->requests[0];
  EXPECT_EQ(first.timestamp_ms, 0u);
  EXPECT_EQ(first.input_tokens, 6758u);
  EXPECT_EQ(first.output_tokens, 500u);
  EXPECT_EQ(first.line, 1u);
  ASSERT_EQ(trace->hashes(first).size(), 14u);
  EXPECT_EQ(trace->hashes(first)[13], 13u);
  // The last line is at 72 s.
  EXPECT_EQ(trace->requests.back().timestamp_ms, 72000u);
  EXPECT_EQ(trace->requests.back().line, 200u);
}

TEST(MooncakeTraceTest, StopsAfterMaxRequestsAndSkipsBlankLines) {
  const std::string text =
      "\n{\"timestamp\": 1, \"input_length\": 513, \"output_length\": 2, \"hash_ids\": [7, 8]}\n"
      "   \n"
      "{\"timestamp\": 5, \"input_length\": 1, \"output_length\": 0, \"hash_ids\": [7], "
      "\"extra\": true}\n"
      "not read\n";
  auto trace = ParseMooncakeTrace(text, "t.jsonl", kBlock, 2);
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  ASSERT_EQ(trace->requests.size(), 2u);
  EXPECT_EQ(trace->requests[0].line, 2u);
  EXPECT_EQ(trace->requests[1].line, 4u);
  EXPECT_EQ(trace->hash_ids, (std::vector<uint64_t>{7, 8, 7}));
}

struct Malformed {
  const char* line;
  const char* reason;
};

// Each bad line comes second, after a good one, so the error must name line 2.
TEST(MooncakeTraceTest, MalformedLinesAreRefusedWithFileLineAndReason) {
  const std::string good =
      "{\"timestamp\": 10, \"input_length\": 600, \"output_length\": 3, \"hash_ids\": [1, 2]}\n";
  const Malformed cases[] = {
      {"{\"timestamp\": 10,", "not JSON: "},
      {"[1, 2]", "expected a JSON object"},
      {"{\"timestamp\": 0, \"timestamp\": 5, \"input_length\": 1, \"output_length\": 1, "
       "\"hash_ids\": [1]}",
       "\"timestamp\" is given twice"},
      {"{\"input_length\": 1, \"output_length\": 1, \"hash_ids\": [1]}", "no \"timestamp\""},
      {"{\"timestamp\": -1, \"input_length\": 1, \"output_length\": 1, \"hash_ids\": [1]}",
       "\"timestamp\" must be a whole number in [0, 1000000000], got -1"},
      {"{\"timestamp\": 10.5, \"input_length\": 1, \"output_length\": 1, \"hash_ids\": [1]}",
       "\"timestamp\" must be a whole number"},
      {"{\"timestamp\": 10, \"input_length\": 0, \"output_length\": 1, \"hash_ids\": []}",
       "\"input_length\" must be a whole number in [1, 16777216], got 0"},
      {"{\"timestamp\": 10, \"input_length\": \"5\", \"output_length\": 1, \"hash_ids\": [1]}",
       "\"input_length\" must be a whole number in [1, 16777216], got \"5\""},
      {"{\"timestamp\": 10, \"input_length\": 5, \"hash_ids\": [1]}", "no \"output_length\""},
      {"{\"timestamp\": 10, \"input_length\": 5, \"output_length\": 1}", "no \"hash_ids\""},
      {"{\"timestamp\": 10, \"input_length\": 5, \"output_length\": 1, \"hash_ids\": 3}",
       "\"hash_ids\" must be an array"},
      {"{\"timestamp\": 10, \"input_length\": 1025, \"output_length\": 1, \"hash_ids\": [1, 2]}",
       "\"hash_ids\" has 2 ids, but 1025 input tokens make 3 blocks of 512 tokens"},
      {"{\"timestamp\": 10, \"input_length\": 5, \"output_length\": 1, \"hash_ids\": [-4]}",
       "\"hash_ids\" must hold whole numbers >= 0, got -4"},
      {"{\"timestamp\": 9, \"input_length\": 5, \"output_length\": 1, \"hash_ids\": [1]}",
       "timestamp 9 is before the previous request's 10: requests must come in arrival order"},
  };
  for (const Malformed& c : cases) {
    auto trace = ParseMooncakeTrace(good + c.line + "\n", "t.jsonl", kBlock);
    ASSERT_FALSE(trace.ok()) << c.line;
    const std::string m = trace.status().message();
    EXPECT_EQ(m.rfind("t.jsonl:2: ", 0), 0u) << m;
    EXPECT_NE(m.find(c.reason), std::string::npos) << m << "\nexpected: " << c.reason;
  }
}

TEST(MooncakeTraceTest, DeepNestingIsRefusedBeforeTheParserRecurses) {
  // A request nests two levels ({"hash_ids": [...]}); 100,000 levels, open or closed, once
  // overflowed the stack. Refused at the guard's limit, 64 levels: the 65th '[' is byte 65.
  for (const std::string& line :
       {std::string(100000, '['), std::string(100000, '[') + std::string(100000, ']')}) {
    auto trace = ParseMooncakeTrace(line + "\n", "t.jsonl", kBlock);
    ASSERT_FALSE(trace.ok());
    EXPECT_EQ(trace.status().message(),
              "t.jsonl:1: not a request: nested deeper than 64 levels at byte 65");
  }
}

TEST(MooncakeTraceTest, AnEmptyTraceIsRefused) {
  auto trace = ParseMooncakeTrace("\n\n", "t.jsonl", kBlock);
  ASSERT_FALSE(trace.ok());
  EXPECT_EQ(trace.status().message(), "t.jsonl: no requests");
}

class MooncakeFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("mooncake_trace_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(MooncakeFileTest, AFileOverTheCapIsRefusedUnread) {
  const std::filesystem::path big = dir_ / "big.jsonl";
  { std::ofstream(big) << ""; }
  // Sparse: one byte over the cap costs no disk.
  std::filesystem::resize_file(big, kMaxMooncakeTraceBytes + 1);
  auto trace = ReadMooncakeTrace("big.jsonl", dir_.string(), kBlock);
  ASSERT_FALSE(trace.ok());
  EXPECT_EQ(trace.status().message(),
            "big.jsonl has 67108865 bytes, more than the 64 MiB a request trace may have");
}

TEST_F(MooncakeFileTest, ADirectoryOrAMissingFileIsRefused) {
  std::filesystem::create_directories(dir_ / "folder.jsonl");
  for (const char* name : {"folder.jsonl", "missing.jsonl"}) {
    auto trace = ReadMooncakeTrace(name, dir_.string(), kBlock);
    ASSERT_FALSE(trace.ok()) << name;
    EXPECT_EQ(trace.status().message(),
              std::string(name) +
                  ": no such regular file (relative names start at the scenario's folder)");
  }
}

TEST_F(MooncakeFileTest, ErrorsNameTheFileAsGiven) {
  { std::ofstream(dir_ / "bad.jsonl") << "{\"timestamp\": 0}\n"; }
  auto trace = ReadMooncakeTrace("bad.jsonl", dir_.string(), kBlock);
  ASSERT_FALSE(trace.ok());
  EXPECT_EQ(trace.status().message(), "bad.jsonl:1: no \"input_length\"");
}

}  // namespace
}  // namespace fe
