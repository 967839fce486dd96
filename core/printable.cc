#include "core/printable.h"

#include <cstdio>

#include "core/utf8.h"

namespace fe {

namespace {

void AppendEscape(unsigned char b, std::string* out) {
  char hex[5];
  std::snprintf(hex, sizeof(hex), "\\x%02x", b);
  *out += hex;
}

}  // namespace

std::string Printable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b >= 0x20 && b < 0x7f) {
      out += s[i++];
    } else if (b == '\n') {
      out += "\\n";
      ++i;
    } else if (b == '\r') {
      out += "\\r";
      ++i;
    } else if (b == '\t') {
      out += "\\t";
      ++i;
    } else if (const size_t n = b >= 0x80 ? Utf8Length(s, i) : 0;
               n > 0 && !(b == 0xc2 && static_cast<unsigned char>(s[i + 1]) < 0xa0)) {
      out.append(s.substr(i, n));  // a character, not a C1 control (U+0080 to U+009F)
      i += n;
    } else {
      AppendEscape(b, &out);
      ++i;
    }
  }
  return out;
}

std::string Quoted(std::string_view s) {
  constexpr size_t kShownBytes = 64;
  if (s.size() <= kShownBytes) return "\"" + Printable(s) + "\"";
  return "\"" + Printable(s.substr(0, kShownBytes)) + "\"... (" + std::to_string(s.size()) +
         " bytes)";
}

}  // namespace fe
