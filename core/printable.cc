#include "core/printable.h"

#include <cstdio>

namespace fe {

std::string Printable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    const auto b = static_cast<unsigned char>(c);
    if (b >= 0x20 && b != 0x7f) {
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      char hex[5];
      std::snprintf(hex, sizeof(hex), "\\x%02x", b);
      out += hex;
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
