#include "control/process/output_set.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>

#include "control/process/output_dir.h"

namespace fe::control {
namespace {

// Removes `dir`'s files (a staging directory holds no directory) and then `dir`.
void RemoveFlatDirectory(const std::string& dir) {
  if (DIR* d = ::opendir(dir.c_str()); d != nullptr) {
    while (const dirent* entry = ::readdir(d)) {
      const std::string_view name = entry->d_name;
      if (name != "." && name != "..") ::unlink((dir + "/" + std::string(name)).c_str());
    }
    ::closedir(d);
  }
  ::rmdir(dir.c_str());
}

}  // namespace

StatusOr<OutputSet> OutputSet::Open(const std::string& out_dir) {
  std::string name =
      out_dir + "/" + std::string(kStagingPrefix) + std::to_string(::getpid()) + "-XXXXXX";
  if (::mkdtemp(name.data()) == nullptr) {
    return Status::Error("cannot create a staging directory in " + out_dir + ": " +
                         std::strerror(errno));
  }
  // mkdtemp makes it private (0700); the outputs inside are written 0644 as any other file.
  ::chmod(name.c_str(), 0755);
  return OutputSet(out_dir, std::move(name));
}

OutputSet::OutputSet(OutputSet&& other) noexcept
    : out_dir_(std::move(other.out_dir_)), staging_(std::move(other.staging_)) {
  other.staging_.clear();
}

OutputSet::~OutputSet() { Discard(); }

void OutputSet::Discard() {
  if (staging_.empty()) return;
  RemoveFlatDirectory(staging_);
  staging_.clear();
}

Status OutputSet::Write(std::string_view name, std::span<const std::string_view> parts) {
  const std::string shown = out_dir_ + "/" + std::string(name);
  Status s = WriteFileAtomically(staging_ + "/" + std::string(name), parts);
  if (!s.ok()) {
    // WriteFileAtomically names the staged path; the user knows the output's.
    const size_t why = s.message().find(": ");
    return Status::Error("cannot write " + shown +
                         (why == std::string::npos ? "" : s.message().substr(why)));
  }
  return Status::Ok();
}

Status OutputSet::Write(std::string_view name, const std::string& contents) {
  const std::string_view whole = contents;
  return Write(name, std::span<const std::string_view>(&whole, 1));
}

std::vector<std::string> OutputSet::Staged() const {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(staging_.c_str()); d != nullptr) {
    while (const dirent* entry = ::readdir(d)) {
      const std::string name = entry->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    ::closedir(d);
  }
  return names;
}

Status OutputSet::Commit() {
  for (const std::string& name : Staged()) {
    const std::string to = out_dir_ + "/" + name;
    if (::rename((staging_ + "/" + name).c_str(), to.c_str()) != 0) {
      return Status::Error("cannot move " + to + " into place: " + std::strerror(errno));
    }
  }
  ::rmdir(staging_.c_str());
  staging_.clear();
  return Status::Ok();
}

void RemoveAbandonedStaging(const std::string& out_dir) {
  DIR* d = ::opendir(out_dir.c_str());
  if (d == nullptr) return;
  std::vector<std::string> abandoned;
  while (const dirent* entry = ::readdir(d)) {
    const std::string_view name = entry->d_name;
    if (!name.starts_with(kStagingPrefix)) continue;
    // The pid after the prefix: a process that still runs may be writing there.
    const long pid =
        std::strtol(std::string(name.substr(kStagingPrefix.size())).c_str(), nullptr, 10);
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
      abandoned.push_back(out_dir + "/" + std::string(name));
    }
  }
  ::closedir(d);
  for (const std::string& dir : abandoned) RemoveFlatDirectory(dir);
}

}  // namespace fe::control
