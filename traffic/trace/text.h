// The lexical pieces of the line-oriented trace formats: lines with their numbers, whitespace-
// separated tokens, whole numbers, and decimal times read exactly into picoseconds: no binary
// rounding on the way, so a time written to the picosecond reads back to the same picosecond.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fe {

// The lines of a text one by one, numbered from 1, without their "\n" or "\r\n". A UTF-8
// byte-order mark before the first line (spreadsheets save CSV with one) is not part of it.
class TraceLines {
 public:
  explicit TraceLines(std::string_view text)
      : rest_(text.starts_with(kUtf8Bom) ? text.substr(kUtf8Bom.size()) : text) {}
  bool Next(std::string_view* line);
  uint32_t number() const { return number_; }  // of the line Next returned last

 private:
  static constexpr std::string_view kUtf8Bom = "\xef\xbb\xbf";
  std::string_view rest_;
  uint32_t number_ = 0;
};

// True for a line of nothing but spaces and tabs.
bool IsBlank(std::string_view line);

// The words of a line, split at runs of spaces and tabs.
std::vector<std::string_view> Tokens(std::string_view line);

// A whole number of decimal digits alone (no sign, no space).
std::optional<uint64_t> ParseWhole(std::string_view s);

// True for one or more decimal digits and nothing else.
bool IsDigits(std::string_view s);

// Why ParseWhole refused `s`, after a field's name: "must be a whole number, got '1e3'", or for
// digits past what 64 bits hold, that it is too large (the field's own range check, which names
// its limit, never sees it).
std::string NotWholeReason(std::string_view s);

// A non-negative decimal ("12", "0.5", "1.5e3") times 10^scale_digits, rounded to the nearest
// whole number (halves up): a time in microseconds becomes picoseconds with scale_digits = 6.
// Results past 2^63 come back as UINT64_MAX, for the caller's range check. Nothing for anything
// else (a sign, "nan", "0x10", trailing text).
std::optional<uint64_t> ParseDecimalScaled(std::string_view s, int scale_digits);

}  // namespace fe
