// Printable: a user's bytes in a message on one line that cannot drive the terminal. The bytes
// that must be escaped are the C0 and C1 control characters (ECMA-48: 0x00-0x1f, 0x7f, and
// U+0080-U+009F, which 8-bit terminals also take as a raw byte such as 0x9b, CSI) and whatever
// is not well-formed UTF-8 (RFC 3629, table 3); every other character stays as written.
#include "core/printable.h"

#include <gtest/gtest.h>

namespace fe {
namespace {

TEST(PrintableTest, ControlCharactersAreEscaped) {
  EXPECT_EQ(Printable("a\nb\rc\td"), "a\\nb\\rc\\td");
  EXPECT_EQ(Printable(std::string_view("\x00\x1b[31m\x7f", 7)), "\\x00\\x1b[31m\\x7f");
}

TEST(PrintableTest, WellFormedUtf8StaysAsWritten) {
  // é (2 bytes), € (3), 𝄞 (4): the first and last of each length's ranges are covered by the
  // cases below that must be escaped.
  EXPECT_EQ(Printable("r\xc3\xa9seau \xe2\x82\xac \xf0\x9d\x84\x9e"),
            "r\xc3\xa9seau \xe2\x82\xac \xf0\x9d\x84\x9e");
  EXPECT_EQ(Printable("\xc2\xa0"), "\xc2\xa0");  // U+00A0, the first past the C1 controls
}

TEST(PrintableTest, C1ControlsAndMalformedBytesAreEscaped) {
  EXPECT_EQ(Printable("a\x9b"
                      "31mb"),
            "a\\x9b31mb");                                           // a raw CSI byte
  EXPECT_EQ(Printable("\xc2\x9b"), "\\xc2\\x9b");                    // U+009B, CSI as UTF-8
  EXPECT_EQ(Printable("\xff\xfe"), "\\xff\\xfe");                    // never in UTF-8
  EXPECT_EQ(Printable("\xc0\xaf"), "\\xc0\\xaf");                    // an overlong '/'
  EXPECT_EQ(Printable("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");           // overlong, 3 bytes
  EXPECT_EQ(Printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // a surrogate, U+D800
  EXPECT_EQ(Printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
  EXPECT_EQ(Printable("\xe2\x82"), "\\xe2\\x82");                    // cut short
}

TEST(PrintableTest, QuotedCutsLongValues) {
  const std::string long_value(100, 'x');
  EXPECT_EQ(Quoted(long_value), "\"" + std::string(64, 'x') + "\"... (100 bytes)");
  EXPECT_EQ(Quoted("a\nb"), "\"a\\nb\"");
}

}  // namespace
}  // namespace fe
