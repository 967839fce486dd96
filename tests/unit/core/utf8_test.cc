// FirstNonUtf8 against RFC 3629's table: what each refused byte sequence breaks.
#include "core/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace fe {
namespace {

TEST(Utf8Test, FindsTheFirstByteThatIsNotUtf8) {
  EXPECT_EQ(FirstNonUtf8("plain"), std::string_view::npos);
  EXPECT_EQ(FirstNonUtf8("gr\xc3\xbc\xc3\x9f"), std::string_view::npos);  // "grüß"
  EXPECT_EQ(FirstNonUtf8("\xf0\x9f\x98\x80"), std::string_view::npos);    // U+1F600
  EXPECT_EQ(FirstNonUtf8("\xff"), 0u);                                    // never a byte of UTF-8
  EXPECT_EQ(FirstNonUtf8("ab\xc0\xaf"), 2u);                              // overlong '/'
  EXPECT_EQ(FirstNonUtf8("a\xed\xa0\x80"), 1u);                           // a surrogate, U+D800
  EXPECT_EQ(FirstNonUtf8("\xf4\x90\x80\x80"), 0u);                        // past U+10FFFF
  EXPECT_EQ(FirstNonUtf8("abc\xe2\x82"), 3u);                             // cut short
}

}  // namespace
}  // namespace fe
