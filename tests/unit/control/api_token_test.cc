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
  ASSERT_TRUE(WriteTokenFile(path, "abc123").ok());
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  StatusOr<std::string> read = ReadTokenFile(path);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(*read, "abc123");
  // Written again over an existing file: still 0600, the new token.
  ASSERT_TRUE(WriteTokenFile(path, "def").ok());
  EXPECT_EQ(ReadTokenFile(path).value(), "def");
  std::remove(path.c_str());
}

TEST(ApiTokenTest, RefusesAFileOthersCanReadOrAnEmptyOne) {
  const std::string path = TempPath("shared");
  { std::ofstream(path) << "  secret \n"; }
  ::chmod(path.c_str(), 0644);
  StatusOr<std::string> shared = ReadTokenFile(path);
  ASSERT_FALSE(shared.ok());
  EXPECT_NE(shared.status().message().find("chmod 600"), std::string::npos);
  ::chmod(path.c_str(), 0600);
  EXPECT_EQ(ReadTokenFile(path).value(), "secret");  // blanks around it are not part of it
  { std::ofstream(path) << "\n"; }
  EXPECT_FALSE(ReadTokenFile(path).ok());
  std::remove(path.c_str());
  EXPECT_FALSE(ReadTokenFile(path).ok());  // missing
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
