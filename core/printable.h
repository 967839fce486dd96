// Users' strings in messages. A scenario's string may hold any byte: a line feed would split one
// error into two (the second without its FILE:LINE), and an escape sequence would drive the
// terminal. Messages show such bytes as escapes instead.
#pragma once

#include <string>
#include <string_view>

namespace fe {

// `s` with every control character (below 0x20, 0x7f, and the C1 controls U+0080 to U+009F) and
// every byte that is not part of well-formed UTF-8 written as an escape: \n, \r, \t, else \xNN
// (a C1 control's two bytes each). Other characters stay as they are.
std::string Printable(std::string_view s);

// A user's value in quotes, printable, cut to its first 64 bytes so that a mistaken huge field
// does not fill the terminal.
std::string Quoted(std::string_view s);

}  // namespace fe
