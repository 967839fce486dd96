#include "dataplane/eal_syscalls.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <optional>

extern "C" {
int __real_access(const char* path, int mode);
int __real_nanosleep(const timespec* requested, timespec* remaining);
int __wrap_access(const char* path, int mode);
int __wrap_nanosleep(const timespec* requested, timespec* remaining);
}

namespace fe::dp {
namespace {

std::atomic<bool> sleeps_capped{false};

// The decimal number at the start of s, if any.
std::optional<int> LeadingNumber(std::string_view s) {
  if (s.empty() || s[0] < '0' || s[0] > '9') return std::nullopt;
  int n = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || end == s.data()) return std::nullopt;
  return n;
}

// HighestListedIndex of a sysfs list file; -1 if unreadable. Read with open/read, not stdio, as
// the file is read once from inside the EAL's first access().
int HighestIndexInFile(const char* path) {
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[256];
  const ssize_t n = read(fd, buf, sizeof(buf));
  close(fd);
  return n > 0 ? HighestListedIndex(std::string_view(buf, static_cast<size_t>(n))) : -1;
}

struct PossibleIndexes {
  int max_cpu = HighestIndexInFile("/sys/devices/system/cpu/possible");
  int max_node = HighestIndexInFile("/sys/devices/system/node/possible");
};

}  // namespace

void CapEalSleeps(bool on) { sleeps_capped.store(on, std::memory_order_relaxed); }

timespec CappedSleep(const timespec& requested, bool capped) {
  const int64_t ns = static_cast<int64_t>(requested.tv_sec) * 1'000'000'000 + requested.tv_nsec;
  if (!capped || ns <= kCappedSleepNs) return requested;
  return timespec{.tv_sec = 0, .tv_nsec = kCappedSleepNs};
}

int HighestListedIndex(std::string_view list) {
  int highest = -1;
  for (size_t i = 0; i < list.size();) {
    if (list[i] < '0' || list[i] > '9') {
      ++i;
      continue;
    }
    int n = 0;
    const auto [end, ec] = std::from_chars(list.data() + i, list.data() + list.size(), n);
    if (ec == std::errc()) highest = std::max(highest, n);
    i = static_cast<size_t>(end - list.data());
  }
  return highest;
}

bool NamesImpossibleCpuOrNode(std::string_view path, int max_cpu, int max_node) {
  constexpr std::string_view kCpu = "/sys/devices/system/cpu/cpu";
  constexpr std::string_view kNode = "/sys/devices/system/node/node";
  if (path.starts_with(kCpu)) {
    const std::optional<int> cpu = LeadingNumber(path.substr(kCpu.size()));
    return max_cpu >= 0 && cpu.has_value() && *cpu > max_cpu;
  }
  if (!path.starts_with(kNode)) return false;
  const std::string_view rest = path.substr(kNode.size());
  const std::optional<int> node = LeadingNumber(rest);
  if (!node.has_value()) return false;
  if (max_node >= 0 && *node > max_node) return true;
  // nodeN/cpuM: the CPU's link under its node.
  const size_t slash = rest.find("/cpu");
  if (slash == std::string_view::npos) return false;
  const std::optional<int> cpu = LeadingNumber(rest.substr(slash + 4));
  return max_cpu >= 0 && cpu.has_value() && *cpu > max_cpu;
}

}  // namespace fe::dp

int __wrap_access(const char* path, int mode) {
  static const fe::dp::PossibleIndexes possible;
  if (path != nullptr &&
      fe::dp::NamesImpossibleCpuOrNode(path, possible.max_cpu, possible.max_node)) {
    errno = ENOENT;
    return -1;
  }
  return __real_access(path, mode);
}

int __wrap_nanosleep(const timespec* requested, timespec* remaining) {
  if (requested == nullptr || !fe::dp::sleeps_capped.load(std::memory_order_relaxed)) {
    return __real_nanosleep(requested, remaining);
  }
  const timespec capped = fe::dp::CappedSleep(*requested, true);
  return __real_nanosleep(&capped, remaining);
}
