#include "control/api/api_token.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>

namespace fe::control::api {

StatusOr<std::string> NewToken() {
  try {
    std::random_device entropy("/dev/urandom");
    static constexpr char kHex[] = "0123456789abcdef";
    std::string token;
    for (int i = 0; i < 8; ++i) {  // 8 draws of 32 bits: 256 bits
      uint32_t word = entropy();
      for (int nibble = 0; nibble < 8; ++nibble, word >>= 4) token += kHex[word & 0xf];
    }
    return token;
  } catch (const std::exception& e) {
    return Status::Error(std::string("cannot read random bytes for the API token: ") + e.what());
  }
}

Status WriteTokenFile(const std::string& path, const std::string& token) {
  // Created 0600 from the start: the token never sits in a file others could read.
  ::unlink(path.c_str());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return Status::Error("cannot write " + path + ": " + std::strerror(errno));
  const std::string line = token + "\n";
  const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  const bool closed = ::close(fd) == 0;
  if (!written || !closed)
    return Status::Error("cannot write " + path + ": " + std::strerror(errno));
  return Status::Ok();
}

StatusOr<std::string> ReadTokenFile(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return Status::Error("--api-token-file " + path + ": " + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    return Status::Error("--api-token-file " + path + ": " +
                         (S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file") +
                         "; the token file is a text file of mode 600");
  }
  if ((st.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    return Status::Error("--api-token-file " + path +
                         ": others than its owner may read or write it; chmod 600 " + path);
  }
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  const size_t first = line.find_first_not_of(" \t\r");
  const size_t last = line.find_last_not_of(" \t\r");
  if (!in.good() && !in.eof())
    return Status::Error("--api-token-file " + path + ": cannot read it");
  if (first == std::string::npos) {
    return Status::Error("--api-token-file " + path + ": its first line holds no token");
  }
  std::string token = line.substr(first, last - first + 1);
  if (token.size() < kMinTokenBytes) {
    return Status::Error("--api-token-file " + path + ": the token has " +
                         std::to_string(token.size()) + (token.size() == 1 ? " byte" : " bytes") +
                         ", fewer than the " + std::to_string(kMinTokenBytes) +
                         " that make it hard to guess; `openssl rand -hex 32` makes one of 64");
  }
  return token;
}

bool BearerMatches(std::string_view authorization, std::string_view token) {
  constexpr std::string_view kScheme = "Bearer ";
  if (authorization.size() != kScheme.size() + token.size()) return false;
  // Every byte is compared, whatever the first difference: the time depends on the length only.
  unsigned char diff = 0;
  // The scheme's name is case-insensitive (RFC 9110, 11.1): "bearer" is "Bearer".
  for (size_t i = 0; i < kScheme.size(); ++i) {
    diff |= static_cast<unsigned char>(std::tolower(static_cast<unsigned char>(authorization[i])) ^
                                       std::tolower(static_cast<unsigned char>(kScheme[i])));
  }
  for (size_t i = 0; i < token.size(); ++i) {
    diff |= static_cast<unsigned char>(authorization[kScheme.size() + i] ^ token[i]);
  }
  return diff == 0;
}

}  // namespace fe::control::api
