// The options each command takes, as one table that both the parser (cli_args.cc) and each
// command's --help (cli_help.cc) read: an option's name, value and description are written once,
// so the help cannot list an option the parser does not take, nor miss one it does.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "control/cli/cli_args.h"
#include "core/status.h"

namespace fe::control {

// Sets the option's CliArgs field from its value (empty for a flag). `flag` is the name it was
// given by (-o or --output), for the error, which says what is wrong without the command: the
// parser adds that and the help to read.
using ApplyOptionFn = Status (*)(std::string_view flag, std::string_view value, CliArgs* args);

// One option of one command: everything the parser and the help need of it.
struct OptionSpec {
  std::string_view name;         // "--output"
  std::string_view short_name;   // "-o", or empty
  std::string_view placeholder;  // "FILE" in the help; empty for a flag, which takes no value
  ApplyOptionFn apply;           // null: -h, --help, which the parser takes before any option
  // Its description in the help: lines split by '\n', each continued line indented to the
  // description's column (more if it starts with spaces). Empty: taken but not listed (see
  // Unlisted in cli_options.cc).
  std::string_view help;
  // EAL arguments start with '-' themselves: only --eal takes a value that does.
  bool value_may_start_with_dash = false;
};

// Options listed under one heading of a command's help, their descriptions from `column` on (a
// longer name pushes its own two spaces further).
struct OptionGroup {
  std::string_view heading;  // "Options:"
  size_t column;
  std::span<const OptionSpec> options;
};

// The options `command` takes, in the order its help lists them: run and serve have two groups,
// "Options:" and the HTTP API's; topo, export and sweep one; validate and report none.
std::span<const OptionGroup> OptionGroupsOf(Command command);

// "  --name PLACEHOLDER  description", one per listed option, under the group's heading and
// followed by a blank line.
std::string OptionGroupHelp(const OptionGroup& group);

}  // namespace fe::control
