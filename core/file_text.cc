#include "core/file_text.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/printable.h"

namespace fe {

StatusOr<std::string> ReadCappedFile(const std::string& path, int64_t max_bytes,
                                     std::string_view kind, const std::string& shown) {
  namespace fs = std::filesystem;
  const std::string shown_printable = Printable(shown);
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    return Status::Error(shown_printable +
                         ": no such regular file (relative names start at the scenario's folder)");
  }
  const uintmax_t size = fs::file_size(path, ec);
  if (ec) return Status::Error(shown_printable + ": " + ec.message());
  if (size > static_cast<uintmax_t>(max_bytes)) {
    return Status::Error(shown_printable + " has " + std::to_string(size) +
                         " bytes, more than the " + std::to_string(max_bytes >> 20) + " MiB " +
                         std::string(kind) + " may have");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) return Status::Error(shown_printable + ": cannot be opened");
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) return Status::Error(shown_printable + ": cannot be read");
  return text.str();
}

StatusOr<std::string> ReadCommandLineFile(const std::string& path, int64_t max_bytes,
                                          std::string_view kind, std::string_view about) {
  namespace fs = std::filesystem;
  const std::string shown = Printable(path);
  // A directory opens as an empty stream on Linux: it would read as an empty file.
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    return Status::Error(shown + ": is a directory, not " + std::string(kind));
  }
  if (fs::exists(path, ec) && !fs::is_regular_file(path, ec)) {
    return Status::Error(shown + ": not a regular file (a FIFO, socket or device); " +
                         std::string(about));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error(shown + ": cannot open: " + std::strerror(errno));
  // Read with a bound: a file may grow while it is read.
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof(chunk)) || in.gcount() > 0) {
    text.append(chunk, static_cast<size_t>(in.gcount()));
    if (text.size() > static_cast<uint64_t>(max_bytes)) {
      return Status::Error(shown + ": larger than " + std::to_string(max_bytes >> 20) + " MiB; " +
                           std::string(about));
    }
  }
  if (in.bad()) return Status::Error(shown + ": cannot read: " + std::strerror(errno));
  return text;
}

}  // namespace fe
