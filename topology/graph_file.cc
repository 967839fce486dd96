#include "topology/graph_file.h"

#include <filesystem>

#include <google/protobuf/io/tokenizer.h>

#include "core/file_text.h"
#include "core/printable.h"
#include "topology/field_error.h"
#include "topology/limits.h"
#include "topology/proto_utf8.h"

namespace fe::topo {
namespace {

// Keeps the first parse error, with its line, for the message.
class FirstError : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (message_.empty())
      message_ = std::to_string(line + 1) + ":" + std::to_string(column + 1) + ": " + message;
  }
  const std::string& message() const { return message_; }

 private:
  std::string message_;
};

}  // namespace

Status ReadGraphFile(const std::string& file, const std::string& scenario_dir, GraphFile& out) {
  namespace fs = std::filesystem;
  out.name = file;
  const std::string where = "graph.file";
  fs::path path(file);
  if (path.is_relative() && !scenario_dir.empty()) path = fs::path(scenario_dir) / path;
  StatusOr<std::string> text =
      ReadCappedFile(path.string(), kMaxGraphFileBytes, "a graph file", Quoted(file));
  if (!text.ok()) return FieldError(where, text.status().message());

  google::protobuf::TextFormat::Parser parser;
  // As for the scenario: deep nesting would overflow the parser's stack.
  parser.SetRecursionLimit(kMaxGraphFileNesting);
  FirstError errors;
  parser.RecordErrorsTo(&errors);
  parser.WriteLocationsTo(&out.locations);
  if (!parser.ParseFromString(*text, &out.graph)) {
    return FieldError(where, file + ":" + errors.message());
  }
  std::string not_utf8;
  ForEachNonUtf8String(
      out.graph, [&](std::span<const FieldStep> at, const std::string& value, size_t offset) {
        if (not_utf8.empty()) {
          const google::protobuf::TextFormat::ParseInfoTree* tree = &out.locations;
          for (size_t i = 0; i + 1 < at.size() && tree != nullptr; ++i) {
            tree = tree->GetTreeForNested(at[i].field, at[i].index);
          }
          const int line =
              tree == nullptr ? -1 : tree->GetLocation(at.back().field, at.back().index).line;
          not_utf8 = Printable(file) + (line >= 0 ? ":" + std::to_string(line + 1) : "") + ": " +
                     FieldPathText(at) + ": " + NonUtf8Reason(value, offset);
        }
      });
  if (!not_utf8.empty()) return FieldError(where, not_utf8);
  if (out.graph.has_file()) {
    return FieldError(where, Quoted(file) +
                                 " names a file itself; a graph file holds nodes "
                                 "and links");
  }
  return Status::Ok();
}

}  // namespace fe::topo
