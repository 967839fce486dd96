// docs/scenario.md is the user's reference to the schema: it must document every field of every
// message a scenario can hold, state each default exactly as the schema declares it, and its
// examples must behave as it says they do.
#include <google/protobuf/descriptor.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "control/scenario/scenario_loader.h"

namespace fe::control {
namespace {

namespace fs = std::filesystem;
namespace pb = google::protobuf;

constexpr char kNoRoot[] = "FABRIC_EMU_ROOT is not set: run the tests through ctest, which sets it";
constexpr char kFieldTableHeader[] = "| field | type | default | meaning |";

fs::path Root() {
  const char* root = std::getenv("FABRIC_EMU_ROOT");
  return root != nullptr ? fs::path(root) : fs::path();
}

// scenario.md, and commands.md which documents the schedule's messages.
std::string ReadDoc() {
  std::ostringstream text;
  for (const char* doc : {"docs/scenario.md", "docs/commands.md"}) {
    std::ifstream in(Root() / doc);
    text << in.rdbuf() << "\n";
  }
  return text.str();
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The field tables of each "### Message" section: message -> field -> its default cell.
std::map<std::string, std::map<std::string, std::string>> FieldTables(const std::string& doc) {
  std::map<std::string, std::map<std::string, std::string>> tables;
  std::string message;
  bool in_table = false;
  for (const std::string& line : SplitLines(doc)) {
    if (line.rfind("### ", 0) == 0) {
      message = line.substr(4);
      tables[message];  // a section without fields still counts as documented
      in_table = false;
    } else if (line == kFieldTableHeader) {
      in_table = true;
    } else if (!line.starts_with("|")) {
      in_table = false;
    } else if (in_table && line.starts_with("| `")) {
      // | `name` | type | default | meaning |
      std::vector<std::string> cells;
      std::istringstream row(line.substr(1));
      for (std::string cell; std::getline(row, cell, '|');) cells.push_back(cell);
      EXPECT_GE(cells.size(), 4u) << line;
      if (cells.size() < 4) continue;
      const std::string name = cells[0].substr(cells[0].find('`') + 1);
      tables[message][name.substr(0, name.find('`'))] = cells[2];
    }
  }
  return tables;
}

// The code blocks of the "## heading" section, as (language, text).
std::vector<std::pair<std::string, std::string>> CodeBlocks(const std::string& doc,
                                                            const std::string& heading) {
  std::vector<std::pair<std::string, std::string>> blocks;
  bool in_section = false;
  bool in_block = false;
  for (const std::string& line : SplitLines(doc)) {
    if (!in_block && line.rfind("## ", 0) == 0) in_section = line == "## " + heading;
    if (!in_section) continue;
    if (line.starts_with("```")) {
      in_block = !in_block;
      if (in_block) blocks.emplace_back(line.substr(3), "");
    } else if (in_block) {
      blocks.back().second += line + "\n";
    }
  }
  return blocks;
}

// A field's default as a scenario file would write it.
std::string DefaultLiteral(const pb::FieldDescriptor* f) {
  switch (f->cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_INT32:
      return std::to_string(f->default_value_int32());
    case pb::FieldDescriptor::CPPTYPE_INT64:
      return std::to_string(f->default_value_int64());
    case pb::FieldDescriptor::CPPTYPE_UINT32:
      return std::to_string(f->default_value_uint32());
    case pb::FieldDescriptor::CPPTYPE_UINT64:
      return std::to_string(f->default_value_uint64());
    case pb::FieldDescriptor::CPPTYPE_DOUBLE:
    case pb::FieldDescriptor::CPPTYPE_FLOAT: {
      char buf[32];
      std::snprintf(buf, sizeof(buf), "%.15g",
                    f->cpp_type() == pb::FieldDescriptor::CPPTYPE_DOUBLE
                        ? f->default_value_double()
                        : f->default_value_float());
      return buf;
    }
    case pb::FieldDescriptor::CPPTYPE_BOOL:
      return f->default_value_bool() ? "true" : "false";
    case pb::FieldDescriptor::CPPTYPE_ENUM:
      return f->default_value_enum()->name();
    case pb::FieldDescriptor::CPPTYPE_STRING:
      return "\"" + f->default_value_string() + "\"";
    case pb::FieldDescriptor::CPPTYPE_MESSAGE:
      break;
  }
  return "";
}

// Every message type a scenario can contain.
void Reachable(const pb::Descriptor* d, std::set<const pb::Descriptor*>* seen) {
  if (!seen->insert(d).second) return;
  for (int i = 0; i < d->field_count(); ++i) {
    if (d->field(i)->message_type() != nullptr) Reachable(d->field(i)->message_type(), seen);
  }
}

TEST(ScenarioDocsTest, EveryFieldIsDocumentedWithTheSchemaDefault) {
  ASSERT_FALSE(Root().empty()) << kNoRoot;
  const auto tables = FieldTables(ReadDoc());
  std::set<const pb::Descriptor*> messages;
  Reachable(fabric_emu::Scenario::descriptor(), &messages);
  for (const pb::Descriptor* m : messages) {
    const auto section = tables.find(m->name());
    if (section == tables.end()) {
      ADD_FAILURE() << "no \"### " << m->name() << "\" section";
      continue;
    }
    for (int i = 0; i < m->field_count(); ++i) {
      const pb::FieldDescriptor* f = m->field(i);
      const auto row = section->second.find(f->name());
      if (row == section->second.end()) {
        ADD_FAILURE() << m->name() << "." << f->name() << " is not documented";
        continue;
      }
      if (f->has_default_value()) {
        EXPECT_NE(row->second.find("`" + DefaultLiteral(f) + "`"), std::string::npos)
            << m->name() << "." << f->name() << ": the schema's default is " << DefaultLiteral(f)
            << ", the doc says:" << row->second;
      }
    }
  }
}

TEST(ScenarioDocsTest, EveryDocumentedFieldExists) {
  ASSERT_FALSE(Root().empty()) << kNoRoot;
  const pb::DescriptorPool* pool = fabric_emu::Scenario::descriptor()->file()->pool();
  for (const auto& [message, fields] : FieldTables(ReadDoc())) {
    const pb::Descriptor* m = pool->FindMessageTypeByName("fabric_emu." + message);
    if (m == nullptr) {
      ADD_FAILURE() << "\"### " << message << "\" documents no message of the schema";
      continue;
    }
    for (const auto& [field, default_cell] : fields) {
      EXPECT_NE(m->FindFieldByName(field), nullptr) << message << "." << field << " is stale";
    }
  }
}

TEST(ScenarioDocsTest, CompleteExampleLoads) {
  ASSERT_FALSE(Root().empty()) << kNoRoot;
  const auto blocks = CodeBlocks(ReadDoc(), "Complete example");
  ASSERT_EQ(blocks.size(), 1u);
  // The doc presents it as a file in scenarios/, which its relative cdf_file assumes.
  const StatusOr<fabric_emu::Scenario> s =
      LoadScenarioText(blocks[0].second, (Root() / "scenarios/example.textproto").string());
  ASSERT_TRUE(s.ok()) << s.status().message();
  // "Every section": each top-level field is set.
  const pb::Descriptor* d = fabric_emu::Scenario::descriptor();
  for (int i = 0; i < d->field_count(); ++i) {
    const pb::FieldDescriptor* f = d->field(i);
    const pb::Reflection* r = s->GetReflection();
    EXPECT_TRUE(f->is_repeated() ? r->FieldSize(s.value(), f) > 0 : r->HasField(s.value(), f))
        << f->name() << " is missing from the complete example";
  }
}

// Each textproto block of the Errors section, loaded as bad.textproto, prints exactly the text
// block that follows it.
TEST(ScenarioDocsTest, ErrorExamplesPrintWhatTheDocShows) {
  ASSERT_FALSE(Root().empty()) << kNoRoot;
  const auto blocks = CodeBlocks(ReadDoc(), "Errors");
  int pairs = 0;
  for (size_t i = 0; i + 1 < blocks.size(); ++i) {
    if (blocks[i].first != "textproto" || blocks[i + 1].first != "text") continue;
    ++pairs;
    const StatusOr<fabric_emu::Scenario> s = LoadScenarioText(blocks[i].second, "bad.textproto");
    ASSERT_FALSE(s.ok()) << blocks[i].second;
    EXPECT_EQ(s.status().message() + "\n", blocks[i + 1].second);
  }
  EXPECT_GE(pairs, 2);
}

}  // namespace
}  // namespace fe::control
