#include "control/process/output_dir.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "control/process/output_set.h"

namespace fe::control {
namespace {

std::string Errno() { return std::strerror(errno); }

// An open temporary file next to `path`, created exclusively (never through a link).
struct TempFile {
  int fd = -1;
  std::string name;
};

StatusOr<TempFile> CreateTempBeside(const std::string& path) {
  std::vector<char> name(path.begin(), path.end());
  // A leading '.' in the file part keeps the temporary out of a plain `ls` while it exists.
  const size_t slash = path.rfind('/');
  const size_t file = slash == std::string::npos ? 0 : slash + 1;
  name.insert(name.begin() + static_cast<std::ptrdiff_t>(file), '.');
  for (const char c : std::string_view(".tmp-XXXXXX")) name.push_back(c);
  name.push_back('\0');
  TempFile t;
  t.fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (t.fd < 0) return Status::Error(Errno());
  t.name = name.data();
  // mkostemp makes the file private (0600); an output is a file like any other the user writes.
  ::fchmod(t.fd, 0644);
  return t;
}

bool WriteAll(int fd, std::string_view contents) {
  size_t done = 0;
  while (done < contents.size()) {
    const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

bool IsRunOutputName(std::string_view name) {
  return std::find(kRunOutputNames.begin(), kRunOutputNames.end(), name) != kRunOutputNames.end();
}

Status PrepareOutputDir(const std::string& out_dir, const std::string& capture_file,
                        std::span<const std::string> inputs) {
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) return Status::Error("cannot create output directory " + out_dir + ": " + ec.message());
  if (!std::filesystem::is_directory(out_dir, ec)) {
    return Status::Error("output directory " + out_dir + " is not a directory");
  }
  // Permission bits do not tell (root ignores them; a read-only mount has them set): creating a
  // file is the one sure test.
  StatusOr<TempFile> probe = CreateTempBeside(out_dir + "/probe");
  if (!probe.ok()) {
    return Status::Error(
        "output directory " + out_dir +
        " is not writable: cannot create a file in it: " + probe.status().message());
  }
  ::close(probe->fd);
  ::unlink(probe->name.c_str());
  RemoveAbandonedStaging(out_dir);

  std::vector<std::string> names(kRunOutputNames.begin(), kRunOutputNames.end());
  if (!capture_file.empty()) names.push_back(capture_file);
  std::vector<std::string> present;
  for (const std::string& name : names) {
    const std::string path = out_dir + "/" + name;
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0) {
      if (errno == ENOENT) continue;
      return Status::Error("cannot inspect output " + path + ": " + Errno());
    }
    if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
      return Status::Error("output " + path + " exists and is " +
                           (S_ISDIR(st.st_mode) ? "a directory" : "not a regular file") +
                           "; remove it or choose another --out");
    }
    // A link is replaced, never written through: only the name itself can be an input.
    for (const std::string& input : inputs) {
      struct stat in;
      if (::stat(input.c_str(), &in) == 0 && in.st_dev == st.st_dev && in.st_ino == st.st_ino) {
        return Status::Error("output " + path + " is also an input of the run (" + input +
                             "): the run would replace it; choose another --out");
      }
    }
    present.push_back(path);
  }
  for (const std::string& path : present) {
    // unlink removes a symlink itself, never its target.
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
      return Status::Error("cannot remove the previous run's " + path + ": " + Errno());
    }
  }
  return Status::Ok();
}

Status WriteFileAtomically(const std::string& path, const std::string& contents) {
  const std::string_view whole = contents;
  return WriteFileAtomically(path, std::span<const std::string_view>(&whole, 1));
}

Status WriteFileAtomically(const std::string& path, std::span<const std::string_view> parts) {
  StatusOr<TempFile> temp = CreateTempBeside(path);
  if (!temp.ok()) return Status::Error("cannot write " + path + ": " + temp.status().message());
  bool written = true;
  for (std::string_view part : parts) {
    if (written) written = WriteAll(temp->fd, part);
  }
  const int write_errno = errno;
  if (::close(temp->fd) != 0 || !written) {
    ::unlink(temp->name.c_str());
    return Status::Error("cannot write " + path + ": " +
                         std::strerror(written ? errno : write_errno));
  }
  // rename replaces the directory entry: a symlink at `path` is replaced, its target untouched.
  if (::rename(temp->name.c_str(), path.c_str()) != 0) {
    const std::string why = Errno();
    ::unlink(temp->name.c_str());
    return Status::Error("cannot write " + path + ": " + why);
  }
  return Status::Ok();
}

Status WriteNamedFile(const std::string& path, const std::string& contents) {
  struct stat st;
  // stat follows a symlink: what the name leads to decides.
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) return Status::Error("cannot write " + path + ": a directory");
  if (exists && S_ISREG(st.st_mode)) {
    std::error_code ec;
    const std::filesystem::path target = std::filesystem::canonical(path, ec);
    return WriteFileAtomically(ec ? path : target.string(), contents);
  }
  struct stat link;
  const bool dangling = !exists && ::lstat(path.c_str(), &link) == 0;
  if (!exists && !dangling) return WriteFileAtomically(path, contents);
  // A device, a FIFO, or a link to a file not there yet: opened and written like any stream.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status::Error("cannot write " + path + ": " + Errno());
  const bool written = WriteAll(fd, contents);
  const int write_errno = errno;
  if (::close(fd) != 0 || !written) {
    return Status::Error("cannot write " + path + ": " +
                         std::strerror(written ? errno : write_errno));
  }
  return Status::Ok();
}

}  // namespace fe::control
