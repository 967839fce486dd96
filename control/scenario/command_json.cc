#include "control/scenario/command_json.h"

#include <google/protobuf/util/json_util.h>

#include "core/json_nesting.h"

namespace fe::control {

namespace {

template <typename M>
StatusOr<M> ParseJson(std::string_view body) {
  if (Status deep = CheckJsonNesting(body); !deep.ok()) {
    return Status::Error("bad command JSON: " + deep.message());
  }
  M message;
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  const auto status = google::protobuf::util::JsonStringToMessage(
      google::protobuf::StringPiece(body.data(), body.size()), &message, options);
  if (!status.ok()) {
    // The parser adds lines that show the text and a caret under the spot: an error is one line.
    const std::string_view why(status.message().data(), status.message().size());
    return Status::Error("bad command JSON: " + std::string(why.substr(0, why.find('\n'))));
  }
  return message;
}

}  // namespace

StatusOr<fabric_emu::Command> ParseCommandJson(std::string_view body) {
  return ParseJson<fabric_emu::Command>(body);
}

StatusOr<fabric_emu::ScheduledCommand> ParseScheduledCommandJson(std::string_view body) {
  return ParseJson<fabric_emu::ScheduledCommand>(body);
}

std::string CommandJson(const fabric_emu::Command& command) {
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  std::string json;
  // Printing a message of our own schema cannot fail.
  (void)google::protobuf::util::MessageToJsonString(command, &json, options);
  return json;
}

fabric_emu::Command CommandOf(const fabric_emu::ScheduledCommand& entry) {
  // Both messages carry the command's oneof at the same field numbers (command.proto).
  fabric_emu::ScheduledCommand without_time = entry;
  without_time.clear_at_ns();
  fabric_emu::Command command;
  command.ParseFromString(without_time.SerializeAsString());
  return command;
}

}  // namespace fe::control
