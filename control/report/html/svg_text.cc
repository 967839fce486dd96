#include "control/report/html/svg_text.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "core/utf8.h"

namespace fe::control::svg {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

}  // namespace

std::string Escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    switch (c) {
      case '&':
        out += "&amp;";
        ++i;
        continue;
      case '<':
        out += "&lt;";
        ++i;
        continue;
      case '>':
        out += "&gt;";
        ++i;
        continue;
      case '"':
        out += "&quot;";
        ++i;
        continue;
      case '\'':
        out += "&#39;";
        ++i;
        continue;
      default:
        break;
    }
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      out += kReplacement;
      ++i;
      continue;
    }
    const size_t n = Utf8Length(text, i);
    if (n == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    out.append(text.substr(i, n));
    i += n;
  }
  return out;
}

std::string ExactNumber(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[64];
  // Fixed notation over the range outputs use (12345678900 rather than 1.23456789e+10), as a
  // CSV column holds it; the shortest that reads back exactly either way.
  const double magnitude = std::abs(value);
  const bool fixed = magnitude == 0 || (magnitude >= 1e-4 && magnitude < 1e17);
  const auto [end, ec] =
      fixed ? std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::fixed)
            : std::to_chars(buf, buf + sizeof(buf), value);
  return std::string(buf, end);
}

std::string Px(double value) {
  char buf[32];
  // -0.0 would print as "-0.0": the same pixel, a different byte.
  const double rounded = std::round(value * 10) / 10;
  std::snprintf(buf, sizeof(buf), "%.1f", rounded == 0 ? 0.0 : rounded);
  return buf;
}

}  // namespace fe::control::svg
