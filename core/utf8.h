// Well-formed UTF-8 (RFC 3629, table 3): what a message or a page may show as written.
#pragma once

#include <cstddef>
#include <string_view>

namespace fe {

// The length of the well-formed UTF-8 sequence at text[i] (1 for ASCII; no overlong form, no
// surrogate, nothing above U+10FFFF), or 0 if the bytes there are not one.
size_t Utf8Length(std::string_view text, size_t i);

// The offset of the first byte of `text` that does not start a well-formed sequence, or
// std::string_view::npos when all of it is UTF-8 (what a JSON or CSV output may hold).
size_t FirstNonUtf8(std::string_view text);

}  // namespace fe
