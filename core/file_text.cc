#include "core/file_text.h"

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

}  // namespace fe
