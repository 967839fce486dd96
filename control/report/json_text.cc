#include "control/report/json_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <span>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace fe::control {

namespace {
constexpr size_t kIndent = 2;  // dump(2)
}

void JsonTextWriter::NewLine(size_t depth) {
  out_ += '\n';
  out_.append(depth * kIndent, ' ');
}

void JsonTextWriter::NextElement() {
  if (counts_.back()++ > 0) out_ += ',';
  NewLine(static_cast<size_t>(depth_) + counts_.size());
}

void JsonTextWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
  } else if (!counts_.empty()) {  // else the value itself
    NextElement();
  }
}

void JsonTextWriter::Key(std::string_view key) {
  NextElement();
  out_ += '"';
  out_ += key;
  out_ += "\": ";
  after_key_ = true;
}

void JsonTextWriter::Open(char bracket) {
  BeforeValue();
  out_ += bracket;
  counts_.push_back(0);
}

void JsonTextWriter::Close(char bracket) {
  // An empty container stays on its line, as dump() writes it: [] and {}.
  if (counts_.back() > 0) NewLine(static_cast<size_t>(depth_) + counts_.size() - 1);
  counts_.pop_back();
  out_ += bracket;
}

void JsonTextWriter::Value(uint64_t v) {
  BeforeValue();
  char digits[24];
  const std::to_chars_result r = std::to_chars(digits, digits + sizeof(digits), v);
  out_.append(digits, r.ptr);
}

void JsonTextWriter::Value(double v) {
  BeforeValue();
  // What dump() writes, without a serializer per value (its set-up was most of a value's cost):
  // null when not finite, else the shortest digits that read back as v, from nlohmann's own
  // to_chars, the one dump() calls.
  if (!std::isfinite(v)) {
    out_ += "null";
    return;
  }
  char digits[64];
  out_.append(digits, nlohmann::detail::to_chars(digits, digits + sizeof(digits), v));
}

void JsonTextWriter::Value(const std::string& v) {
  BeforeValue();
  // Printable ASCII other than a quote or a backslash is what dump() leaves as it is.
  if (std::all_of(v.begin(), v.end(),
                  [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; })) {
    out_ += '"';
    out_ += v;
    out_ += '"';
    return;
  }
  out_ += nlohmann::json(v).dump();
}

namespace {

// Where the value of the top-level member `key` of `dumped` starts, and the placeholder's length.
std::pair<size_t, size_t> PlaceholderOf(std::string_view dumped, std::string_view key) {
  std::string prefix = "\n  \"";
  prefix += key;
  prefix += "\": ";
  const std::string placeholder = nlohmann::json(kSplicedMember).dump();
  const size_t at = dumped.find(prefix + placeholder);
  if (at == std::string::npos) {
    throw std::logic_error("SpliceMember: no member \"" + std::string(key) + "\" to fill in");
  }
  return {at + prefix.size(), placeholder.size()};
}

std::string Join(std::span<const std::string_view> parts) {
  size_t bytes = 0;
  for (std::string_view p : parts) bytes += p.size();
  std::string out;
  out.reserve(bytes);
  for (std::string_view p : parts) out.append(p);
  return out;
}

}  // namespace

SplicedJson::SplicedJson(std::string dumped, std::string_view key, std::string text,
                         std::string end)
    : dumped_(std::move(dumped)), text_(std::move(text)), end_(std::move(end)) {
  std::tie(value_at_, value_bytes_) = PlaceholderOf(dumped_, key);
}

std::array<std::string_view, 4> SplicedJson::Parts() const {
  const std::string_view dumped = dumped_;
  return {dumped.substr(0, value_at_), text_, dumped.substr(value_at_ + value_bytes_), end_};
}

std::string SplicedJson::Joined() const { return Join(Parts()); }

std::string SpliceMember(std::string_view dumped, std::string_view key, std::string_view text,
                         std::string_view end) {
  const auto [value_at, value_bytes] = PlaceholderOf(dumped, key);
  const std::array<std::string_view, 4> parts = {dumped.substr(0, value_at), text,
                                                 dumped.substr(value_at + value_bytes), end};
  return Join(parts);
}

}  // namespace fe::control
