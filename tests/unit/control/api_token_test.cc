// The bearer token: random, kept in a file only its owner can read, compared in constant time.
#include "control/api/api_token.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace fe::control::api {
namespace {

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("fe_api_token_" + name)).string();
}

TEST(ApiTokenTest, NewTokensAre256RandomBitsInHex) {
  StatusOr<std::string> a = NewToken();
  StatusOr<std::string> b = NewToken();
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->size(), 64u);
  EXPECT_EQ(a->find_first_not_of("0123456789abcdef"), std::string::npos) << *a;
  // Two draws of 256 bits collide with probability 2^-256.
  EXPECT_NE(*a, *b);
}

TEST(ApiTokenTest, WrittenFileIsTheOwnersAloneAndReadsBack) {
  const std::string path = TempPath("written");
  ASSERT_TRUE(WriteTokenFile(path, "abc123abc123abc123").ok());
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  StatusOr<std::string> read = ReadTokenFile(path);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(*read, "abc123abc123abc123");
  // Written again over an existing file: still 0600, the new token.
  ASSERT_TRUE(WriteTokenFile(path, "defdefdefdefdefdef").ok());
  EXPECT_EQ(ReadTokenFile(path).value(), "defdefdefdefdefdef");
  std::remove(path.c_str());
}

TEST(ApiTokenTest, RefusesAFileOthersCanReadOrAnEmptyOne) {
  const std::string path = TempPath("shared");
  { std::ofstream(path) << "  secret-of-the-owner \n"; }
  ::chmod(path.c_str(), 0644);
  StatusOr<std::string> shared = ReadTokenFile(path);
  ASSERT_FALSE(shared.ok());
  EXPECT_NE(shared.status().message().find("chmod 600"), std::string::npos);
  ::chmod(path.c_str(), 0600);
  // Blanks around it are not part of it.
  EXPECT_EQ(ReadTokenFile(path).value(), "secret-of-the-owner");
  { std::ofstream(path) << "\n"; }
  EXPECT_FALSE(ReadTokenFile(path).ok());
  std::remove(path.c_str());
  EXPECT_FALSE(ReadTokenFile(path).ok());  // missing
}

// 16 bytes, the least a token may have; one byte fewer, or a token of one character, is refused
// by its length, blanks around it not counted.
TEST(ApiTokenTest, RefusesATokenShorterThan16Bytes) {
  const std::string path = TempPath("short");
  const auto read = [&path](const std::string& line) {
    { std::ofstream(path) << line; }
    ::chmod(path.c_str(), 0600);
    return ReadTokenFile(path);
  };
  StatusOr<std::string> one = read("x\n");
  ASSERT_FALSE(one.ok());
  EXPECT_NE(one.status().message().find("the token has 1 byte, fewer than the 16"),
            std::string::npos)
      << one.status().message();
  EXPECT_FALSE(read("  0123456789abcde  \n").ok());  // 15 bytes
  EXPECT_EQ(read("  0123456789abcdef  \n").value(), "0123456789abcdef");
  std::remove(path.c_str());
}

TEST(ApiTokenTest, BearerMatchesOnlyTheExactHeader) {
  EXPECT_TRUE(BearerMatches("Bearer abc", "abc"));
  EXPECT_FALSE(BearerMatches("", "abc"));
  EXPECT_FALSE(BearerMatches("Bearer abd", "abc"));
  EXPECT_FALSE(BearerMatches("Bearer abcd", "abc"));
  EXPECT_FALSE(BearerMatches("Bearer ab", "abc"));
  EXPECT_FALSE(BearerMatches("Basic  abc", "abc"));
  EXPECT_FALSE(BearerMatches("abc", "abc"));
}

}  // namespace
}  // namespace fe::control::api
