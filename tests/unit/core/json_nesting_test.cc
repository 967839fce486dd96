// The guard every JSON reader runs first: nesting is counted as the JSON grammar has it, arrays
// and objects alike, not brackets inside strings.
#include "core/json_nesting.h"

#include <gtest/gtest.h>

#include <string>

namespace fe {
namespace {

std::string Nested(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

TEST(JsonNestingTest, AcceptsUpToTheLimitAndRefusesOneLevelMore) {
  EXPECT_TRUE(CheckJsonNesting(Nested(kMaxJsonNesting)).ok());
  const Status deeper = CheckJsonNesting(Nested(kMaxJsonNesting + 1));
  ASSERT_FALSE(deeper.ok());
  // The 65th '[' is byte 65: where the limit was passed.
  EXPECT_EQ(deeper.message(), "nested deeper than 64 levels at byte 65");
}

TEST(JsonNestingTest, CountsObjectsAndArraysTogether) {
  EXPECT_TRUE(CheckJsonNesting(R"({"a": [{"b": [1]}]})", 4).ok());
  EXPECT_FALSE(CheckJsonNesting(R"({"a": [{"b": [1]}]})", 3).ok());
}

TEST(JsonNestingTest, BracketsInStringsDoNotCount) {
  // An escaped quote does not end the string: the brackets after it are still inside.
  EXPECT_TRUE(CheckJsonNesting(R"(["[[[[", "\"[[[[", "{{{{"])", 1).ok());
  // A string that ends in an escaped backslash ends at the quote after it.
  EXPECT_FALSE(CheckJsonNesting(R"(["\\", [[1]]])", 2).ok());
}

TEST(JsonNestingTest, AHundredThousandOpenBracketsAreRefusedAtTheLimit) {
  const Status s = CheckJsonNesting(std::string(100000, '['));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "nested deeper than 64 levels at byte 65");
}

}  // namespace
}  // namespace fe
