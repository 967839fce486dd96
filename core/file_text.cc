#include "core/file_text.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/printable.h"

namespace fe {
namespace {

// Why a file was not read whole.
enum class Refusal { kNone, kMissing, kDirectory, kSpecial, kPseudo, kTooLarge, kOpen, kRead };

struct Bounded {
  std::string text;
  Refusal refusal = Refusal::kNone;
  int error = 0;            // errno of kOpen and kRead
  uint64_t size_bytes = 0;  // of kTooLarge: its size, or what was read of it when it grew
};

// File systems whose files are made as they are read: stat gives them size 0 (or 4096) whatever
// they hold, and some block in read() (/proc/kmsg) or never end.
bool IsPseudoFileSystem(int fd) {
  struct statfs fs;
  if (::fstatfs(fd, &fs) != 0) return false;
  switch (static_cast<unsigned long>(fs.f_type)) {
    case PROC_SUPER_MAGIC:
    case SYSFS_MAGIC:
    case DEBUGFS_MAGIC:
    case TRACEFS_MAGIC:
    case SECURITYFS_MAGIC:
    case CGROUP_SUPER_MAGIC:
    case CGROUP2_SUPER_MAGIC:
      return true;
    default:
      return false;
  }
}

// The file at `path`, read through one descriptor (what is checked is what is read): opened
// without blocking (a FIFO's open waits for a writer), refused unless a regular file on a disk's
// file system, and read up to max_bytes + 1 whatever its size said, since a file may grow while
// it is read.
Bounded ReadBounded(const std::string& path, int64_t max_bytes) {
  Bounded b;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    b.error = errno;
    b.refusal = errno == ENOENT || errno == ENOTDIR ? Refusal::kMissing : Refusal::kOpen;
    return b;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    b.error = errno;
    b.refusal = Refusal::kOpen;
  } else if (S_ISDIR(st.st_mode)) {
    b.refusal = Refusal::kDirectory;
  } else if (!S_ISREG(st.st_mode)) {
    b.refusal = Refusal::kSpecial;
  } else if (IsPseudoFileSystem(fd)) {
    b.refusal = Refusal::kPseudo;
  } else if (st.st_size > max_bytes) {
    b.refusal = Refusal::kTooLarge;
    b.size_bytes = static_cast<uint64_t>(st.st_size);
  }
  char chunk[1 << 16];
  while (b.refusal == Refusal::kNone) {
    const ssize_t n = ::read(fd, chunk, sizeof(chunk));
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      b.error = errno;
      b.refusal = Refusal::kRead;
    } else {
      b.text.append(chunk, static_cast<size_t>(n));
      if (b.text.size() > static_cast<uint64_t>(max_bytes)) {
        b.refusal = Refusal::kTooLarge;
        b.size_bytes = b.text.size();
      }
    }
  }
  ::close(fd);
  if (b.refusal != Refusal::kNone) b.text.clear();
  return b;
}

std::string MiB(int64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

StatusOr<std::string> ReadCappedFile(const std::string& path, int64_t max_bytes,
                                     std::string_view kind, const std::string& shown) {
  const std::string name = Printable(shown);
  Bounded b = ReadBounded(path, max_bytes);
  switch (b.refusal) {
    case Refusal::kNone:
      return std::move(b.text);
    case Refusal::kMissing:
    case Refusal::kDirectory:
    case Refusal::kSpecial:
      return Status::Error(
          name + ": no such regular file (relative names start at the scenario's folder)");
    case Refusal::kPseudo:
      return Status::Error(name + ": a file of /proc or /sys, not " + std::string(kind));
    case Refusal::kTooLarge:
      return Status::Error(name + " has " + std::to_string(b.size_bytes) +
                           " bytes, more than the " + MiB(max_bytes) + " " + std::string(kind) +
                           " may have");
    case Refusal::kOpen:
      return Status::Error(name + ": cannot be opened: " + std::strerror(b.error));
    case Refusal::kRead:
      return Status::Error(name + ": cannot be read: " + std::strerror(b.error));
  }
  return Status::Error(name + ": cannot be read");
}

StatusOr<std::string> ReadCommandLineFile(const std::string& path, int64_t max_bytes,
                                          std::string_view kind, std::string_view about) {
  const std::string name = Printable(path);
  Bounded b = ReadBounded(path, max_bytes);
  switch (b.refusal) {
    case Refusal::kNone:
      return std::move(b.text);
    case Refusal::kDirectory:
      return Status::Error(name + ": is a directory, not " + std::string(kind));
    case Refusal::kSpecial:
      return Status::Error(name + ": not a regular file (a FIFO, socket or device); " +
                           std::string(about));
    case Refusal::kPseudo:
      return Status::Error(name + ": a file of /proc or /sys; " + std::string(about));
    case Refusal::kTooLarge:
      return Status::Error(name + ": larger than " + MiB(max_bytes) + "; " + std::string(about));
    case Refusal::kMissing:
    case Refusal::kOpen:
      return Status::Error(name + ": cannot open: " + std::strerror(b.error));
    case Refusal::kRead:
      return Status::Error(name + ": cannot read: " + std::strerror(b.error));
  }
  return Status::Error(name + ": cannot read");
}

}  // namespace fe
