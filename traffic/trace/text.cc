#include "traffic/trace/text.h"

#include <charconv>
#include <limits>
#include <string>

namespace fe {
namespace {

constexpr uint64_t kSaturated = std::numeric_limits<uint64_t>::max();
constexpr unsigned __int128 kMaxResult = std::numeric_limits<int64_t>::max();

bool IsSpace(char c) { return c == ' ' || c == '\t'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The whole number the digits spell, times 10^shift; kSaturated past 2^63.
uint64_t DigitsTimesPowerOfTen(std::string_view digits, int shift) {
  // 2^63 has 19 digits: more than 20 in all is past it whatever they are.
  if (static_cast<int>(digits.size()) + shift > 20) return kSaturated;
  unsigned __int128 v = 0;
  for (const char c : digits) v = v * 10 + static_cast<unsigned>(c - '0');
  for (int i = 0; i < shift; ++i) v *= 10;
  return v > kMaxResult ? kSaturated : static_cast<uint64_t>(v);
}

}  // namespace

bool TraceLines::Next(std::string_view* line) {
  if (rest_.empty()) return false;
  const size_t end = rest_.find('\n');
  *line = rest_.substr(0, end);
  rest_ = end == std::string_view::npos ? std::string_view() : rest_.substr(end + 1);
  if (!line->empty() && line->back() == '\r') line->remove_suffix(1);
  ++number_;
  return true;
}

bool IsBlank(std::string_view line) {
  for (const char c : line) {
    if (!IsSpace(c)) return false;
  }
  return true;
}

std::vector<std::string_view> Tokens(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && IsSpace(line[i])) ++i;
    const size_t begin = i;
    while (i < line.size() && !IsSpace(line[i])) ++i;
    if (i > begin) out.push_back(line.substr(begin, i - begin));
  }
  return out;
}

std::optional<uint64_t> ParseWhole(std::string_view s) {
  uint64_t v = 0;
  if (s.empty() || !IsDigit(s[0])) return std::nullopt;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

bool IsDigits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

std::string NotWholeReason(std::string_view s) {
  return (IsDigits(s) ? "is too large for a whole number of 64 bits (at most " +
                            std::to_string(kSaturated) + "), got '"
                      : std::string("must be a whole number, got '")) +
         std::string(s) + "'";
}

std::optional<uint64_t> ParseDecimalScaled(std::string_view s, int scale_digits) {
  std::string digits;  // every digit of the mantissa, the point left out
  size_t i = 0;
  while (i < s.size() && IsDigit(s[i])) digits += s[i++];
  int fraction_digits = 0;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && IsDigit(s[i])) {
      digits += s[i++];
      ++fraction_digits;
    }
  }
  if (digits.empty()) return std::nullopt;
  int exponent = 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    const bool negative = i < s.size() && s[i] == '-';
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    const size_t first = i;
    while (i < s.size() && IsDigit(s[i])) {
      // Beyond 4 digits the exponent only decides between 0 and saturation: clamp it there.
      if (exponent < 10000) exponent = exponent * 10 + (s[i] - '0');
      ++i;
    }
    if (i == first) return std::nullopt;
    if (negative) exponent = -exponent;
  }
  if (i != s.size()) return std::nullopt;

  const size_t significant = digits.find_first_not_of('0');
  if (significant == std::string::npos) return 0;
  const std::string_view mantissa = std::string_view(digits).substr(significant);
  const int shift = exponent - fraction_digits + scale_digits;
  if (shift >= 0) return DigitsTimesPowerOfTen(mantissa, shift);
  const int kept = static_cast<int>(mantissa.size()) + shift;  // digits left of the point
  if (kept < 0) return 0;
  const uint64_t whole = kept == 0 ? 0 : DigitsTimesPowerOfTen(mantissa.substr(0, kept), 0);
  if (whole == kSaturated) return kSaturated;
  return mantissa[kept] >= '5' ? whole + 1 : whole;
}

}  // namespace fe
