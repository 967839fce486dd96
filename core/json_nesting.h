// A guard run before a JSON parser: text nested past a bound is refused before any parser sees
// it. nlohmann's and protobuf's parsers build (and nlohmann's dump() and destructor walk) values
// by recursion, so a line of a hundred thousand '[' overflows the stack; no input of ours nests
// more than a few levels.
#pragma once

#include <string_view>

#include "core/status.h"

namespace fe {

// The deepest nesting of arrays and objects a JSON input of ours may have.
inline constexpr int kMaxJsonNesting = 64;

// Ok when no array or object in `text` lies more than `max_depth` levels deep (brackets inside
// strings do not count); otherwise "nested deeper than N levels at byte B". Does not check that
// the text is JSON: the parser that follows does.
Status CheckJsonNesting(std::string_view text, int max_depth = kMaxJsonNesting);

}  // namespace fe
