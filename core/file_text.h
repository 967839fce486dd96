// Reading a file a scenario names: only a regular file (a FIFO or a device would block or never
// end), and only up to a cap checked before reading, so no input can exhaust memory.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace fe {

// The whole file at `path` if it is a regular file of at most max_bytes. `kind` names it in the
// refusal ("a trace file"); errors start with `shown`, the name the user wrote.
StatusOr<std::string> ReadCappedFile(const std::string& path, int64_t max_bytes,
                                     std::string_view kind, const std::string& shown);

// The whole file a user names on the command line (a path from the working directory). A
// directory is refused as not `kind` ("a scenario file"), a FIFO, socket or device (which would
// block or never end) and a file past max_bytes with `about` ("a scenario is a text file");
// errors start with the path, printable.
StatusOr<std::string> ReadCommandLineFile(const std::string& path, int64_t max_bytes,
                                          std::string_view kind, std::string_view about);

}  // namespace fe
