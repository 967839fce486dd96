#include "control/scenario/scenario_loader.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <filesystem>
#include <sstream>
#include <vector>

#include "control/scenario/validate/scenario_validator.h"
#include "control/scenario/validate/validation.h"
#include "core/file_text.h"
#include "core/printable.h"

namespace fe::control {
namespace {

namespace pb = google::protobuf;

// The parser counts lines by line feeds: a file saved with carriage returns alone (old Mac
// style) would be one line, and every error would point at line 1. CR LF stays one break.
std::string WithLineFeeds(const std::string& text) {
  std::string out = text;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == '\r' && (i + 1 == out.size() || out[i + 1] != '\n')) out[i] = '\n';
  }
  return out;
}

// A flow list of a million flows is about 60 MB of text.
constexpr size_t kMaxScenarioFileBytes = 64u << 20;
constexpr int kMaxScenarioNesting = 64;

// Turns the parser's reports (0-based line and column) into "FILE:LINE:COL: message".
class SyntaxErrors : public pb::io::ErrorCollector {
 public:
  explicit SyntaxErrors(const std::string& file) : file_(file) {}

  void AddError(int line, pb::io::ColumnNumber column, const std::string& message) override {
    // At the end of the text the parser names the token it got as nothing: "..., got: ".
    const bool at_end = message.ends_with("got: ");
    errors_.push_back(file_ + ":" + std::to_string(line + 1) + ":" + std::to_string(column + 1) +
                      ": " + message + (at_end ? "the end of the file" : ""));
  }

  const std::vector<std::string>& errors() const { return errors_; }

 private:
  std::string file_;
  std::vector<std::string> errors_;
};

// One error a line: a control character a value brought into a message is shown as an escape,
// so it can neither split its line nor drive the terminal.
Status JoinLines(const std::vector<std::string>& lines) {
  // A mistake repeated a million times (a list of hosts) is read in its first lines.
  constexpr size_t kMaxLines = 100;
  std::string joined;
  for (size_t i = 0; i < lines.size() && i < kMaxLines; ++i) {
    if (!joined.empty()) joined += '\n';
    joined += Printable(lines[i]);
  }
  if (lines.size() > kMaxLines) {
    joined += "\n... and " + std::to_string(lines.size() - kMaxLines) + " more errors";
  }
  return Status::Error(joined);
}

}  // namespace

StatusOr<fabric_emu::Scenario> LoadScenarioText(const std::string& text,
                                                const std::string& display_name) {
  SyntaxErrors syntax_errors(display_name);
  pb::TextFormat::ParseInfoTree locations;
  pb::TextFormat::Parser parser;
  // Each nesting level is a frame of the parser's recursion: thousands of them overflow the
  // stack. No scenario needs more than a dozen.
  parser.SetRecursionLimit(kMaxScenarioNesting);
  parser.RecordErrorsTo(&syntax_errors);
  parser.WriteLocationsTo(&locations);
  fabric_emu::Scenario scenario;
  if (!parser.ParseFromString(WithLineFeeds(text), &scenario)) {
    if (syntax_errors.errors().empty()) {  // the parser failed without saying where
      return Status::Error(display_name + ": not a valid scenario in Protobuf text format");
    }
    return JoinLines(syntax_errors.errors());
  }
  // The one thing the file may leave to its location: an unset name is the file's stem.
  if (!scenario.has_name()) {
    scenario.set_name(PlainNameFromStem(std::filesystem::path(display_name).stem().string()));
  }
  const std::vector<std::string> errors = ValidateScenario(scenario, locations, display_name);
  if (!errors.empty()) return JoinLines(errors);
  return scenario;
}

StatusOr<fabric_emu::Scenario> LoadScenarioFile(const std::string& path) {
  StatusOr<std::string> text = ReadCommandLineFile(path, kMaxScenarioFileBytes, "a scenario file",
                                                   "a scenario is a text file");
  if (!text.ok()) return text.status();
  return LoadScenarioText(*text, path);
}

}  // namespace fe::control
