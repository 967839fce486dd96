#include "control/sweep/input_paths.h"

#include <string>
#include <vector>

#include "proto/scenario.pb.h"

namespace fe::control {

namespace pb = google::protobuf;

bool IsInputPathField(const pb::FieldDescriptor* field) {
  if (field->cpp_type() != pb::FieldDescriptor::CPPTYPE_STRING) return false;
  if (field->containing_type() == fabric_emu::Capture::descriptor()) return false;
  const std::string& name = field->name();
  return name == "file" || name.ends_with("_file");
}

void AnchorInputPaths(const std::filesystem::path& scenario_dir, pb::Message* message) {
  const pb::Reflection* r = message->GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r->ListFields(*message, &fields);  // the set ones only
  for (const pb::FieldDescriptor* f : fields) {
    if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      if (f->is_repeated()) {
        for (int i = 0; i < r->FieldSize(*message, f); ++i) {
          AnchorInputPaths(scenario_dir, r->MutableRepeatedMessage(message, f, i));
        }
      } else {
        AnchorInputPaths(scenario_dir, r->MutableMessage(message, f));
      }
    } else if (IsInputPathField(f) && !f->is_repeated()) {
      const std::filesystem::path path = r->GetString(*message, f);
      if (path.empty() || path.is_absolute()) continue;
      r->SetString(message, f, std::filesystem::absolute(scenario_dir / path).lexically_normal());
    }
  }
}

}  // namespace fe::control
