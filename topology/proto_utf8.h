// Strings of a parsed Protobuf message that are not UTF-8. The schema's strings are proto2
// `string` fields, which the parsers fill with any bytes ("\xff" in text format); names reach
// summary.json and the CSV files, which hold UTF-8 only, so every input refuses such a string
// where it is read, with the field that holds it.
#pragma once

#include <google/protobuf/message.h>

#include <cstddef>
#include <functional>
#include <span>
#include <string>

namespace fe::topo {

// One step from a message to a field inside it: the field, and the element of a repeated one
// (-1 for a singular field).
struct FieldStep {
  const google::protobuf::FieldDescriptor* field;
  int index;
};

// Calls `found` for each string field (or element) set in `message` or a message inside it that
// is not well-formed UTF-8, with the steps that lead to it, its value and the offset of its first
// bad byte.
void ForEachNonUtf8String(
    const google::protobuf::Message& message,
    const std::function<void(std::span<const FieldStep> path, const std::string& value,
                             size_t offset)>& found);

// "node[3].name": the steps as a field path.
std::string FieldPathText(std::span<const FieldStep> path);

// The refusal's text: "is not UTF-8 text (byte 0xff at offset 0)".
std::string NonUtf8Reason(const std::string& value, size_t offset);

}  // namespace fe::topo
