#include "traffic/trace/text.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace fe {
namespace {

constexpr uint64_t kSaturated = std::numeric_limits<uint64_t>::max();

TEST(TraceTextTest, DecimalsBecomeExactWholeUnits) {
  // 0.1 us is 100,000 ps exactly; as a double times 1e6 it would not be.
  EXPECT_EQ(ParseDecimalScaled("0.1", 6), 100000u);
  EXPECT_EQ(ParseDecimalScaled("2", 12), 2000000000000u);  // 2 s in ps
  EXPECT_EQ(ParseDecimalScaled("2.000001", 12), 2000001000000u);
  EXPECT_EQ(ParseDecimalScaled("1500.5", 3), 1500500u);  // ns to ps
  EXPECT_EQ(ParseDecimalScaled("1.5e3", 3), 1500000u);
  EXPECT_EQ(ParseDecimalScaled("15E-1", 0), 2u);  // 1.5 rounds half up
  EXPECT_EQ(ParseDecimalScaled("1e-12", 12), 1u);
  EXPECT_EQ(ParseDecimalScaled(".25", 2), 25u);
  EXPECT_EQ(ParseDecimalScaled("7.", 0), 7u);
  EXPECT_EQ(ParseDecimalScaled("000.000", 3), 0u);
}

TEST(TraceTextTest, DigitsBelowTheUnitRoundToNearest) {
  EXPECT_EQ(ParseDecimalScaled("0.0005", 3), 1u);  // half a unit: up
  EXPECT_EQ(ParseDecimalScaled("0.00049999", 3), 0u);
  EXPECT_EQ(ParseDecimalScaled("0.0015", 3), 2u);
  EXPECT_EQ(ParseDecimalScaled("1e-400", 12), 0u);
}

TEST(TraceTextTest, ValuesPastTwoToTheSixtyThreeSaturate) {
  EXPECT_EQ(ParseDecimalScaled("9223372036854775807", 0), 9223372036854775807u);
  EXPECT_EQ(ParseDecimalScaled("9223372036854775808", 0), kSaturated);
  EXPECT_EQ(ParseDecimalScaled("1e30", 0), kSaturated);
  EXPECT_EQ(ParseDecimalScaled("1e99999", 0), kSaturated);
  EXPECT_EQ(ParseDecimalScaled("10000000", 12), kSaturated);  // 1e7 s: 1e19 ps
}

TEST(TraceTextTest, AnythingButAPlainDecimalIsRefused) {
  for (const char* bad : {"", ".", "-1", "+1", "1e", "1e+", "nan", "inf", "0x10", "1.5 ", " 1",
                          "1,5", "1.2.3", "e5"}) {
    EXPECT_FALSE(ParseDecimalScaled(bad, 3).has_value()) << "'" << bad << "'";
  }
}

TEST(TraceTextTest, WholeNumbersAreDigitsAlone) {
  EXPECT_EQ(ParseWhole("0"), 0u);
  EXPECT_EQ(ParseWhole("18446744073709551615"), kSaturated);
  for (const char* bad : {"", "-1", "+1", "1a", "1.0", " 1", "18446744073709551616"}) {
    EXPECT_FALSE(ParseWhole(bad).has_value()) << "'" << bad << "'";
  }
}

TEST(TraceTextTest, AWholeNumberTooLargeIsNotCalledMalformed) {
  EXPECT_EQ(NotWholeReason("1k"), "must be a whole number, got '1k'");
  EXPECT_EQ(NotWholeReason("-1"), "must be a whole number, got '-1'");
  // 2^64: digits alone, one past what 64 bits hold.
  EXPECT_EQ(NotWholeReason("18446744073709551616"),
            "is too large for a whole number of 64 bits (at most 18446744073709551615), got "
            "'18446744073709551616'");
  EXPECT_TRUE(IsDigits("007"));
  EXPECT_FALSE(IsDigits(""));
  EXPECT_FALSE(IsDigits("1 "));
}

TEST(TraceTextTest, LinesAreNumberedFromOneWithoutTheirBreaks) {
  TraceLines lines("a\r\nb\n\n  c");
  std::vector<std::string> seen;
  std::string_view line;
  while (lines.Next(&line)) {
    seen.push_back(std::to_string(lines.number()) + ":" + std::string(line));
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"1:a", "2:b", "3:", "4:  c"}));
  EXPECT_TRUE(IsBlank(" \t"));
  EXPECT_FALSE(IsBlank(" x"));
}

// The byte-order mark U+FEFF (EF BB BF in UTF-8) a spreadsheet puts before a CSV file's first
// line is not part of it; elsewhere it is left alone.
TEST(TraceTextTest, AByteOrderMarkBeforeTheFirstLineIsDropped) {
  TraceLines lines("\xef\xbb\xbfid,src\n\xef\xbb\xbfx");
  std::string_view line;
  ASSERT_TRUE(lines.Next(&line));
  EXPECT_EQ(line, "id,src");
  ASSERT_TRUE(lines.Next(&line));
  EXPECT_EQ(line, "\xef\xbb\xbfx");
  EXPECT_EQ(lines.number(), 2u);
}

TEST(TraceTextTest, TokensSplitAtRunsOfSpacesAndTabs) {
  const std::vector<std::string_view> t = Tokens("  0->1\t id  7 ");
  EXPECT_EQ(t, (std::vector<std::string_view>{"0->1", "id", "7"}));
  EXPECT_TRUE(Tokens(" \t ").empty());
}

}  // namespace
}  // namespace fe
