#include "control/scenario/field_override.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include "core/printable.h"

namespace fe::control {
namespace {

namespace pb = google::protobuf;

// One step of a path: a field name and, for an element of a repeated field, its index.
struct Step {
  std::string name;
  std::optional<int> index;
};

std::string Shown(const Step& step) {
  return step.index ? step.name + "[" + std::to_string(*step.index) + "]" : step.name;
}

StatusOr<std::vector<Step>> SplitPath(std::string_view path) {
  std::vector<Step> steps;
  size_t begin = 0;
  while (true) {
    const size_t dot = path.find('.', begin);
    const std::string_view part =
        path.substr(begin, dot == std::string_view::npos ? std::string_view::npos : dot - begin);
    Step step;
    const size_t bracket = part.find('[');
    step.name = std::string(part.substr(0, bracket));
    bool ok = !step.name.empty();
    if (ok && bracket != std::string_view::npos) {
      const std::string_view digits = part.substr(bracket + 1, part.size() - bracket - 2);
      int index = -1;
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
      ok = part.back() == ']' && !digits.empty() && ec == std::errc() &&
           end == digits.data() + digits.size() && index >= 0;
      step.index = index;
    }
    if (!ok) {
      return Status::Error("bad path element " + Quoted(part) +
                           ": each is a field name, or NAME[INDEX] for an element of a repeated "
                           "field (INDEX from 0)");
    }
    steps.push_back(std::move(step));
    if (dot == std::string_view::npos) return steps;
    begin = dot + 1;
  }
}

std::string FieldNames(const pb::Descriptor* type) {
  std::string names;
  for (int i = 0; i < type->field_count(); ++i) {
    names += (i == 0 ? "" : ", ") + type->field(i)->name();
  }
  return names;
}

// The field a step names in `message`, its index checked against the elements `message` has.
StatusOr<const pb::FieldDescriptor*> FieldOf(const pb::Message& message, const Step& step) {
  const pb::Descriptor* type = message.GetDescriptor();
  const pb::FieldDescriptor* f = type->FindFieldByName(step.name);
  if (f == nullptr) {
    return Status::Error("no field " + Quoted(step.name) + " in " + type->name() + "; fields are " +
                         FieldNames(type));
  }
  if (f->is_repeated() && !step.index) {
    return Status::Error(f->name() + " is a repeated field: name one element, as " + f->name() +
                         "[0]");
  }
  if (!f->is_repeated() && step.index) {
    return Status::Error(f->name() + " is not a repeated field: it takes no [index]");
  }
  if (step.index) {
    const int size = message.GetReflection()->FieldSize(message, f);
    if (*step.index >= size) {
      return Status::Error(
          Shown(step) + ": no such element: " +
          (size == 0 ? "the scenario has no " + f->name() + " entry"
                     : "the scenario has " + std::to_string(size) + " " + f->name() +
                           (size == 1 ? " entry, [0]"
                                      : " entries, [0] to [" + std::to_string(size - 1) + "]")));
    }
  }
  return f;
}

std::string TypeName(const pb::FieldDescriptor* f) {
  if (f->message_type() != nullptr) return f->message_type()->name();
  if (f->enum_type() != nullptr) return f->enum_type()->name();
  return f->type_name();
}

// A value parsed for one field, ready to be written.
using Value =
    std::variant<int32_t, int64_t, uint32_t, uint64_t, double, float, bool,
                 const pb::EnumValueDescriptor*, std::string, std::shared_ptr<pb::Message>>;

// A whole number within T's range; "1e6" is taken too, as long as it is whole.
template <typename T>
StatusOr<T> ParseWhole(std::string_view text) {
  const std::string range = std::to_string(std::numeric_limits<T>::min()) + " to " +
                            std::to_string(std::numeric_limits<T>::max());
  T v{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec == std::errc() && end == text.data() + text.size()) return v;
  if (ec == std::errc::result_out_of_range) {
    return Status::Error("out of range: takes " + range + ", got " + Quoted(text));
  }
  double d = 0;
  const auto [dend, dec] = std::from_chars(text.data(), text.data() + text.size(), d);
  if (text.empty() || dec != std::errc() || dend != text.data() + text.size() ||
      !std::isfinite(d) || d != std::floor(d)) {
    return Status::Error("takes a whole number from " + range + ", got " + Quoted(text));
  }
  // Above 2^53 a double is not exact, and T's own bounds may round up past T: compare in long
  // double, which holds every 64-bit integer.
  const auto ld = static_cast<long double>(d);
  if (ld < static_cast<long double>(std::numeric_limits<T>::min()) ||
      ld > static_cast<long double>(std::numeric_limits<T>::max())) {
    return Status::Error("out of range: takes " + range + ", got " + Quoted(text));
  }
  return static_cast<T>(d);
}

template <typename T>
StatusOr<T> ParseReal(std::string_view text) {
  T v{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec == std::errc::result_out_of_range) {
    return Status::Error("out of range for a " + std::string(sizeof(T) == 4 ? "float" : "double") +
                         ", got " + Quoted(text));
  }
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) {
    return Status::Error("takes a finite number, got " + Quoted(text));
  }
  return v;
}

// The parser's first complaint, for a message written in text format.
class FirstError : public pb::io::ErrorCollector {
 public:
  void AddError(int /*line*/, pb::io::ColumnNumber column, const std::string& message) override {
    if (error_.empty()) error_ = "column " + std::to_string(column + 1) + ": " + message;
  }
  const std::string& error() const { return error_; }

 private:
  std::string error_;
};

StatusOr<std::shared_ptr<pb::Message>> ParseMessage(const pb::FieldDescriptor* f,
                                                    std::string_view text) {
  std::shared_ptr<pb::Message> m(
      pb::MessageFactory::generated_factory()->GetPrototype(f->message_type())->New());
  // Braces are optional: {dcqcn {}} and dcqcn {} are the same message.
  std::string_view body = text;
  if (body.size() >= 2 && body.front() == '{' && body.back() == '}') {
    body = body.substr(1, body.size() - 2);
  }
  FirstError errors;
  pb::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  if (!parser.ParseFromString(std::string(body), m.get())) {
    return Status::Error("not a " + f->message_type()->name() + " in text format (" +
                         Printable(errors.error()) + "), got " + Quoted(text));
  }
  return m;
}

template <typename T>
StatusOr<Value> AsValue(StatusOr<T> parsed) {
  if (!parsed.ok()) return parsed.status();
  return Value(std::move(parsed).value());
}

StatusOr<Value> ParseValue(const pb::FieldDescriptor* f, std::string_view text) {
  switch (f->cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_INT32:
      return AsValue(ParseWhole<int32_t>(text));
    case pb::FieldDescriptor::CPPTYPE_INT64:
      return AsValue(ParseWhole<int64_t>(text));
    case pb::FieldDescriptor::CPPTYPE_UINT32:
      return AsValue(ParseWhole<uint32_t>(text));
    case pb::FieldDescriptor::CPPTYPE_UINT64:
      return AsValue(ParseWhole<uint64_t>(text));
    case pb::FieldDescriptor::CPPTYPE_DOUBLE:
      return AsValue(ParseReal<double>(text));
    case pb::FieldDescriptor::CPPTYPE_FLOAT:
      return AsValue(ParseReal<float>(text));
    case pb::FieldDescriptor::CPPTYPE_BOOL:
      if (text == "true" || text == "1") return Value(true);
      if (text == "false" || text == "0") return Value(false);
      return Status::Error("takes true or false, got " + Quoted(text));
    case pb::FieldDescriptor::CPPTYPE_ENUM: {
      const pb::EnumDescriptor* e = f->enum_type();
      if (const pb::EnumValueDescriptor* v = e->FindValueByName(std::string(text))) {
        return Value(v);
      }
      std::string names;
      for (int i = 0; i < e->value_count(); ++i) {
        names += (i == 0 ? "" : ", ") + e->value(i)->name();
      }
      return Status::Error("no value " + Quoted(text) + " in " + e->name() + "; values are " +
                           names);
    }
    case pb::FieldDescriptor::CPPTYPE_STRING:
      if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
        return Value(std::string(text.substr(1, text.size() - 2)));
      }
      return Value(std::string(text));
    case pb::FieldDescriptor::CPPTYPE_MESSAGE:
      return AsValue(ParseMessage(f, text));
  }
  return Status::Error("a field of a type that cannot be set");
}

// Writes v into f of m: element `index` of a repeated field, else the field itself.
void Write(pb::Message* m, const pb::FieldDescriptor* f, std::optional<int> index, const Value& v) {
  const pb::Reflection* r = m->GetReflection();
  const int i = index.value_or(0);
  const bool rep = index.has_value();
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, int32_t>) {
          rep ? r->SetRepeatedInt32(m, f, i, x) : r->SetInt32(m, f, x);
        } else if constexpr (std::is_same_v<T, int64_t>) {
          rep ? r->SetRepeatedInt64(m, f, i, x) : r->SetInt64(m, f, x);
        } else if constexpr (std::is_same_v<T, uint32_t>) {
          rep ? r->SetRepeatedUInt32(m, f, i, x) : r->SetUInt32(m, f, x);
        } else if constexpr (std::is_same_v<T, uint64_t>) {
          rep ? r->SetRepeatedUInt64(m, f, i, x) : r->SetUInt64(m, f, x);
        } else if constexpr (std::is_same_v<T, double>) {
          rep ? r->SetRepeatedDouble(m, f, i, x) : r->SetDouble(m, f, x);
        } else if constexpr (std::is_same_v<T, float>) {
          rep ? r->SetRepeatedFloat(m, f, i, x) : r->SetFloat(m, f, x);
        } else if constexpr (std::is_same_v<T, bool>) {
          rep ? r->SetRepeatedBool(m, f, i, x) : r->SetBool(m, f, x);
        } else if constexpr (std::is_same_v<T, const pb::EnumValueDescriptor*>) {
          rep ? r->SetRepeatedEnum(m, f, i, x) : r->SetEnum(m, f, x);
        } else if constexpr (std::is_same_v<T, std::string>) {
          rep ? r->SetRepeatedString(m, f, i, x) : r->SetString(m, f, x);
        } else {
          (rep ? r->MutableRepeatedMessage(m, f, i) : r->MutableMessage(m, f))->CopyFrom(*x);
        }
      },
      v);
}

struct ResolvedPath {
  std::vector<Step> steps;
  std::vector<const pb::FieldDescriptor*> fields;  // one per step
};

// The fields `path` names from `root`, checked on the message as it is. A message not set reads
// as its default instance, whose repeated fields are empty, so an index into it is refused too.
StatusOr<ResolvedPath> Resolve(const pb::Message& root, std::string_view path) {
  StatusOr<std::vector<Step>> steps = SplitPath(path);
  if (!steps.ok()) return steps.status();
  ResolvedPath resolved;
  const pb::Message* at = &root;
  for (size_t i = 0; i < steps->size(); ++i) {
    const Step& step = (*steps)[i];
    StatusOr<const pb::FieldDescriptor*> f = FieldOf(*at, step);
    if (!f.ok()) return f.status();
    resolved.fields.push_back(*f);
    if (i + 1 == steps->size()) break;
    if ((*f)->message_type() == nullptr) {
      return Status::Error(Shown(step) + " (" + TypeName(*f) +
                           ") is not a message: nothing can follow it");
    }
    const pb::Reflection* r = at->GetReflection();
    at = step.index ? &r->GetRepeatedMessage(*at, *f, *step.index) : &r->GetMessage(*at, *f);
  }
  resolved.steps = std::move(steps).value();
  return resolved;
}

}  // namespace

StatusOr<FieldOverride> ParseFieldOverride(std::string_view arg) {
  const size_t eq = arg.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    return Status::Error("takes PATH=VALUE (e.g. topology.fat_tree.link_rate_gbps=400), got " +
                         Quoted(arg));
  }
  return FieldOverride{std::string(arg.substr(0, eq)), std::string(arg.substr(eq + 1))};
}

Status CheckFieldPath(const pb::Message& root, std::string_view path) {
  return Resolve(root, path).status();
}

Status SetFieldByPath(pb::Message* root, std::string_view path, std::string_view value) {
  // First every check, on the message as it is: nothing is created or switched before the path
  // and the value are known to be good.
  StatusOr<ResolvedPath> resolved = Resolve(*root, path);
  if (!resolved.ok()) return resolved.status();
  const std::vector<Step>& steps = resolved->steps;
  const std::vector<const pb::FieldDescriptor*>& fields = resolved->fields;
  const pb::FieldDescriptor* leaf = fields.back();
  StatusOr<Value> v = ParseValue(leaf, value);
  if (!v.ok()) {
    return Status::Error(Shown(steps.back()) + " (" + TypeName(leaf) +
                         "): " + v.status().message());
  }
  pb::Message* m = root;
  for (size_t i = 0; i + 1 < steps.size(); ++i) {
    const pb::Reflection* r = m->GetReflection();
    const std::optional<int> index = steps[i].index;
    m = index ? r->MutableRepeatedMessage(m, fields[i], *index) : r->MutableMessage(m, fields[i]);
  }
  Write(m, leaf, steps.back().index, *v);
  return Status::Ok();
}

}  // namespace fe::control
