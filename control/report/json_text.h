// JSON written as text, straight into a string, in the layout nlohmann's dump(2) gives: for a
// section of thousands of entries, where building nlohmann's tree first costs more than the text
// (summary.json's switch_queues at k = 16: 8,000 objects, 1.9 MB, was 60 ms of tree and dump out
// of a 1 s run). A document keeps its small members in a tree and splices the section's text in
// (SpliceMember), so readers see one dump(2) layout to the byte.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/prefault.h"

namespace fe::control {

class JsonTextWriter {
 public:
  // The value starts at nesting depth `depth` (a top-level member's value: 1), so that its
  // inner lines carry that depth's indent.
  explicit JsonTextWriter(int depth) : depth_(depth) {}

  // Room for this much text, its pages backed at once (core/prefault.h): a large section grown
  // by doubling copies itself into fresh pages each time, and a page's first touch is the
  // dearest part of writing it. An estimate a little above the text costs little: the outputs
  // are written once the packets' memory has gone back.
  void Reserve(size_t bytes) {
    out_.reserve(bytes);
    PrefaultForWrite(out_.data(), out_.capacity());
  }

  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }
  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  // An object member's key; its value comes next. `key` is written as it is: plain ASCII.
  void Key(std::string_view key);
  void Value(uint64_t v);
  // Formatted by nlohmann itself: the shortest digits that read back as v, as dump() does.
  void Value(double v);
  // Escaped by nlohmann (which also refuses text that is not UTF-8, as dump() does).
  void Value(const std::string& v);

  const std::string& text() const { return out_; }
  std::string Release() && { return std::move(out_); }

 private:
  void Open(char bracket);
  void Close(char bracket);
  // The separator and indent of a container's next element (an array value or a member's key).
  void NextElement();
  // Before a value: NextElement in an array (a member's came with its Key).
  void BeforeValue();
  void NewLine(size_t depth);

  std::string out_;
  int depth_;
  std::vector<uint32_t> counts_;  // per open container: its elements so far
  bool after_key_ = false;
};

// A placeholder for a member whose value SpliceMember fills in from text.
inline constexpr char kSplicedMember[] = "\x01spliced";

// A document with one member's value spliced in from text, held as its pieces: written to a
// file piece by piece (WriteFileAtomically's parts), it is never copied whole. At k = 16 the
// whole is 2.6 MB, and a copy's fresh pages were some 650 page faults.
class SplicedJson {
 public:
  // `dumped` is a document's dump(2) whose top-level object has `key` set to kSplicedMember; the
  // value becomes `text` (a JsonTextWriter's at depth 1), and `end` follows the document. The
  // member is found by its whole line, which no string value can contain (dump escapes line
  // breaks). Throws std::logic_error if there is no such member.
  SplicedJson(std::string dumped, std::string_view key, std::string text, std::string end = "");

  // The document's text, in order.
  std::array<std::string_view, 4> Parts() const;
  // All of it in one string.
  std::string Joined() const;

 private:
  std::string dumped_;
  size_t value_at_ = 0;     // where the placeholder starts in dumped_
  size_t value_bytes_ = 0;  // the placeholder's length
  std::string text_;
  std::string end_;
};

// SplicedJson(dumped, key, text, end).Joined(), from views: one allocation, the result's.
std::string SpliceMember(std::string_view dumped, std::string_view key, std::string_view text,
                         std::string_view end = "");

}  // namespace fe::control
