#include "topology/graph_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include <google/protobuf/io/tokenizer.h>

#include "topology/field_error.h"
#include "topology/limits.h"

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
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    return FieldError(where, Quoted(file) +
                                 ": no such file (relative names start at the "
                                 "scenario's folder)");
  }
  const uintmax_t size = fs::file_size(path, ec);
  if (ec) return FieldError(where, Quoted(file) + ": " + ec.message());
  if (size > static_cast<uintmax_t>(kMaxGraphFileBytes)) {
    return FieldError(where, Quoted(file) + " has " + std::to_string(size) +
                                 " bytes, more than the 64 MiB a graph file may have");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) return FieldError(where, Quoted(file) + ": cannot be opened");
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) return FieldError(where, Quoted(file) + ": cannot be read");

  google::protobuf::TextFormat::Parser parser;
  FirstError errors;
  parser.RecordErrorsTo(&errors);
  parser.WriteLocationsTo(&out.locations);
  if (!parser.ParseFromString(text.str(), &out.graph)) {
    return FieldError(where, file + ":" + errors.message());
  }
  if (out.graph.has_file()) {
    return FieldError(where, Quoted(file) +
                                 " names a file itself; a graph file holds nodes "
                                 "and links");
  }
  return Status::Ok();
}

}  // namespace fe::topo
