#include "control/process/input_paths.h"

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

namespace {

// Calls visit(message, field) for every input path field set in `message`, recursively.
template <typename Visit>
void ForEachInputPath(pb::Message* message, const Visit& visit) {
  const pb::Reflection* r = message->GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r->ListFields(*message, &fields);  // the set ones only
  for (const pb::FieldDescriptor* f : fields) {
    if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      if (f->is_repeated()) {
        for (int i = 0; i < r->FieldSize(*message, f); ++i) {
          ForEachInputPath(r->MutableRepeatedMessage(message, f, i), visit);
        }
      } else {
        ForEachInputPath(r->MutableMessage(message, f), visit);
      }
    } else if (IsInputPathField(f) && !f->is_repeated()) {
      visit(message, f);
    }
  }
}

}  // namespace

void AnchorInputPaths(const std::filesystem::path& scenario_dir, pb::Message* message) {
  ForEachInputPath(message, [&scenario_dir](pb::Message* m, const pb::FieldDescriptor* f) {
    const std::filesystem::path path = m->GetReflection()->GetString(*m, f);
    if (path.empty() || path.is_absolute()) return;
    m->GetReflection()->SetString(
        m, f, std::filesystem::absolute(scenario_dir / path).lexically_normal());
  });
}

std::vector<std::string> ScenarioInputFiles(const fabric_emu::Scenario& scenario,
                                            const std::filesystem::path& scenario_dir) {
  fabric_emu::Scenario anchored = scenario;
  AnchorInputPaths(scenario_dir, &anchored);
  std::vector<std::string> files;
  ForEachInputPath(&anchored, [&files](pb::Message* m, const pb::FieldDescriptor* f) {
    files.push_back(m->GetReflection()->GetString(*m, f));
  });
  return files;
}

std::string ScenarioDirOf(const std::string& scenario_path) {
  const std::filesystem::path dir = std::filesystem::path(scenario_path).parent_path();
  return dir.empty() ? "." : dir.string();
}

std::vector<std::string> RunInputFiles(const std::string& scenario_path,
                                       const fabric_emu::Scenario& scenario) {
  std::vector<std::string> inputs = ScenarioInputFiles(scenario, ScenarioDirOf(scenario_path));
  inputs.push_back(scenario_path);
  return inputs;
}

}  // namespace fe::control
