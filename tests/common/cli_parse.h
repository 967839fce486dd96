// The command line as main receives it, for tests of the argument parser.
#pragma once

#include <string>
#include <vector>

#include "control/cli/cli_args.h"

namespace fe::control {

// argv as main receives it: program name first, then the arguments, as mutable C strings.
inline StatusOr<CliArgs> ParseArgs(const std::vector<std::string>& args) {
  std::vector<std::string> storage = {"fabric-emu"};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : storage) argv.push_back(s.data());
  return ParseCliArgs(static_cast<int>(argv.size()), argv.data());
}

inline bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace fe::control
