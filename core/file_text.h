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

}  // namespace fe
