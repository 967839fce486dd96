#include "topology/proto_utf8.h"

#include <cstdio>
#include <vector>

#include "core/utf8.h"

namespace fe::topo {
namespace {

namespace pb = google::protobuf;

using Found = std::function<void(std::span<const FieldStep>, const std::string&, size_t)>;

void Walk(const pb::Message& message, std::vector<FieldStep>* path, const Found& found) {
  const pb::Reflection* reflection = message.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  reflection->ListFields(message, &fields);
  for (const pb::FieldDescriptor* f : fields) {
    const bool repeated = f->is_repeated();
    const int count = repeated ? reflection->FieldSize(message, f) : 1;
    for (int i = 0; i < count; ++i) {
      path->push_back(FieldStep{f, repeated ? i : -1});
      if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_STRING &&
          f->type() == pb::FieldDescriptor::TYPE_STRING) {
        std::string scratch;
        const std::string& value =
            repeated ? reflection->GetRepeatedStringReference(message, f, i, &scratch)
                     : reflection->GetStringReference(message, f, &scratch);
        if (const size_t at = FirstNonUtf8(value); at != std::string::npos) found(*path, value, at);
      } else if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
        Walk(repeated ? reflection->GetRepeatedMessage(message, f, i)
                      : reflection->GetMessage(message, f),
             path, found);
      }
      path->pop_back();
    }
  }
}

}  // namespace

void ForEachNonUtf8String(const pb::Message& message, const Found& found) {
  std::vector<FieldStep> path;
  Walk(message, &path, found);
}

std::string FieldPathText(std::span<const FieldStep> path) {
  std::string text;
  for (const FieldStep& step : path) {
    if (!text.empty()) text += '.';
    text += step.field->name();
    if (step.index >= 0) text += "[" + std::to_string(step.index) + "]";
  }
  return text;
}

std::string NonUtf8Reason(const std::string& value, size_t offset) {
  char byte[8];
  std::snprintf(byte, sizeof(byte), "0x%02x", static_cast<unsigned char>(value[offset]));
  return std::string("is not UTF-8 text (byte ") + byte + " at offset " + std::to_string(offset) +
         "); names and paths reach summary.json and the CSV outputs, which hold UTF-8 only";
}

}  // namespace fe::topo
