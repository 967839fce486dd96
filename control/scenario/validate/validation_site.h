// Where a finding sits in a scenario file, and the findings themselves: a message's field path
// and parse locations (Site), and the errors collected against them, each as
// "FILE:LINE: field.path: reason" (Findings). Every section of the validator reports through
// these, so that every error reads the same way.
#pragma once

#include <google/protobuf/descriptor.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/printable.h"

namespace fe::control {

namespace pb = google::protobuf;

template <typename T>
std::string Num(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.15g", static_cast<double>(v));
    return buf;
  } else {
    return std::to_string(v);
  }
}

// Where a message sits in the scenario file: its field path and its parse locations. Fields are
// named by their generated field-number constants so that a typo fails to compile.
class Site {
 public:
  Site(const pb::Descriptor* type, const pb::TextFormat::ParseInfoTree* tree, std::string path,
       int line)
      : type_(type), tree_(tree), path_(std::move(path)), line_(line) {}

  // The site of the message held in `field` (element `index` of a repeated field).
  Site Nested(int field, int index = -1) const {
    const pb::FieldDescriptor* f = type_->FindFieldByNumber(field);
    const pb::TextFormat::ParseInfoTree* sub =
        HasLocation(f, index) ? tree_->GetTreeForNested(f, f->is_repeated() ? index : -1) : nullptr;
    return Site(f->message_type(), sub, Path(field, index), Line(field, index));
  }

  // 1-based line of `field`; the line of this message when the field is not in the text (or is
  // a repeated field named as a whole), and 0 when neither is (a top-level field left out).
  int Line(int field, int index = -1) const {
    const pb::FieldDescriptor* f = type_->FindFieldByNumber(field);
    if (!HasLocation(f, index)) return line_;
    const pb::TextFormat::ParseLocation at = tree_->GetLocation(f, f->is_repeated() ? index : -1);
    return at.line >= 0 ? at.line + 1 : line_;
  }

  std::string Path(int field, int index = -1) const {
    const std::string& name = type_->FindFieldByNumber(field)->name();
    std::string p = path_.empty() ? name : path_ + "." + name;
    if (index >= 0) p += "[" + std::to_string(index) + "]";
    return p;
  }

  const std::string& path() const { return path_; }
  int line() const { return line_; }
  const pb::Descriptor* type() const { return type_; }

 private:
  // Whether the parse tree can be asked for f: it aborts the process when asked for a repeated
  // field as a whole (an empty one, whose error names the field, has no element to point at).
  bool HasLocation(const pb::FieldDescriptor* f, int index) const {
    return tree_ != nullptr && !(f->is_repeated() && index < 0);
  }

  const pb::Descriptor* type_;
  const pb::TextFormat::ParseInfoTree* tree_;  // null where the message is not in the text
  std::string path_;
  int line_;
};

class Findings {
 public:
  explicit Findings(const std::string& file) : file_(file) {}

  void Add(const Site& site, int field, const std::string& message) {
    AddAt(site.Line(field), site.Path(field), message);
  }
  // An error about a message as a whole.
  void AddWhole(const Site& site, const std::string& message) {
    AddAt(site.line(), site.path(), message);
  }
  // An error at a line and path found otherwise (a path another layer named).
  void AddAt(int line, const std::string& path, const std::string& message) {
    const std::string where = line > 0 ? file_ + ":" + std::to_string(line) : file_;
    found_.emplace_back(line, where + ": " + path + ": " + message);
  }

  // Each range check reports unless the value passes, and returns whether it passed.
  template <typename T>
  bool AtLeast(const Site& s, int field, T v, T min) {
    if (!Finite(s, field, v)) return false;
    if (v >= min) return true;
    Add(s, field, "must be >= " + Num(min) + ", got " + Num(v));
    return false;
  }
  template <typename T>
  bool Above(const Site& s, int field, T v, T bound) {
    if (!Finite(s, field, v)) return false;
    if (v > bound) return true;
    Add(s, field, "must be > " + Num(bound) + ", got " + Num(v));
    return false;
  }
  // lo <= v <= hi; `why` explains a bound that is not obvious.
  template <typename T>
  bool InRange(const Site& s, int field, T v, T lo, T hi, const std::string& why = "") {
    return Between(s, field, v, lo, Bound::kClosed, hi, Bound::kClosed, why);
  }
  // lo < v <= hi.
  template <typename T>
  bool AboveUpTo(const Site& s, int field, T v, T lo, T hi, const std::string& why = "") {
    return Between(s, field, v, lo, Bound::kOpen, hi, Bound::kClosed, why);
  }
  // lo <= v < hi.
  template <typename T>
  bool FromBelow(const Site& s, int field, T v, T lo, T hi, const std::string& why = "") {
    return Between(s, field, v, lo, Bound::kClosed, hi, Bound::kOpen, why);
  }
  bool Present(const Site& s, int field, bool has, const std::string& what) {
    if (!has) Add(s, field, "required: " + what);
    return has;
  }

  bool empty() const { return found_.empty(); }

  std::vector<std::string> SortedByLine() && {
    std::stable_sort(found_.begin(), found_.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> out;
    out.reserve(found_.size());
    for (auto& [line, text] : found_) out.push_back(std::move(text));
    return out;
  }

 private:
  enum class Bound { kClosed, kOpen };

  template <typename T>
  bool Between(const Site& s, int field, T v, T lo, Bound lo_kind, T hi, Bound hi_kind,
               const std::string& why) {
    if (!Finite(s, field, v)) return false;
    const bool above_lo = lo_kind == Bound::kClosed ? v >= lo : v > lo;
    const bool below_hi = hi_kind == Bound::kClosed ? v <= hi : v < hi;
    if (above_lo && below_hi) return true;
    Add(s, field,
        "must be in " + std::string(lo_kind == Bound::kClosed ? "[" : "(") + Num(lo) + ", " +
            Num(hi) + (hi_kind == Bound::kClosed ? "]" : ")") +
            (why.empty() ? "" : " (" + why + ")") + ", got " + Num(v));
    return false;
  }

  template <typename T>
  bool Finite(const Site& s, int field, T v) {
    if constexpr (std::is_floating_point_v<T>) {
      if (!std::isfinite(v)) {
        Add(s, field, "must be a finite number, got " + Num(v));
        return false;
      }
    }
    return true;
  }

  std::string file_;
  std::vector<std::pair<int, std::string>> found_;
};

}  // namespace fe::control
