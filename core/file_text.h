// Reading a file an input names: only a regular file on a disk's file system (a FIFO or a device
// would block or never end; a /proc or /sys file says size 0 and may block in read(), as
// /proc/kmsg does), opened and read without blocking, and only up to a cap that holds whatever
// stat said, so no input can hang the process or exhaust its memory.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace fe {

// The whole file at `path` if it is a regular file of at most max_bytes, not of /proc or /sys.
// `kind` names it in the refusal ("a trace file"); errors start with `shown`, the name the user
// wrote.
StatusOr<std::string> ReadCappedFile(const std::string& path, int64_t max_bytes,
                                     std::string_view kind, const std::string& shown);

// The whole file a user names on the command line (a path from the working directory). A
// directory is refused as not `kind` ("a scenario file"), a FIFO, socket or device, a /proc or
// /sys file and a file past max_bytes with `about` ("a scenario is a text file");
// errors start with the path, printable.
StatusOr<std::string> ReadCommandLineFile(const std::string& path, int64_t max_bytes,
                                          std::string_view kind, std::string_view about);

}  // namespace fe
