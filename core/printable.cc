#include "core/printable.h"

#include <cstdio>

namespace fe {

namespace {

// The length of the well-formed UTF-8 sequence that starts s[i] (RFC 3629: no overlong form, no
// surrogate, nothing past U+10FFFF), or 0 if none does.
size_t Utf8Length(std::string_view s, size_t i) {
  const auto at = [&s](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b = at(i);
  size_t n = 0;
  unsigned char lo = 0x80, hi = 0xbf;  // the second byte's range
  if (b >= 0xc2 && b <= 0xdf) {
    n = 2;
  } else if (b >= 0xe0 && b <= 0xef) {
    n = 3;
    if (b == 0xe0) lo = 0xa0;
    if (b == 0xed) hi = 0x9f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    n = 4;
    if (b == 0xf0) lo = 0x90;
    if (b == 0xf4) hi = 0x8f;
  } else {
    return 0;
  }
  if (i + n > s.size() || at(i + 1) < lo || at(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k) {
    if (at(i + k) < 0x80 || at(i + k) > 0xbf) return 0;
  }
  return n;
}

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
    } else if (const size_t n = Utf8Length(s, i);
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
