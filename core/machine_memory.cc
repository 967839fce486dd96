#include "core/machine_memory.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <string>

namespace fe {
namespace {

std::string Slurp(const char* path) {
  std::ifstream in(path);
  if (!in) return "";
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The whole number `text` starts with, after any blanks; false when it starts with none.
bool LeadingNumber(std::string_view text, uint64_t* value) {
  const size_t at = text.find_first_not_of(" \t");
  if (at == std::string_view::npos) return false;
  text.remove_prefix(at);
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *value);
  return ec == std::errc() && end != text.data();
}

}  // namespace

uint64_t AvailableMemoryBytesOf(std::string_view meminfo, std::string_view cgroup_limit,
                                std::string_view cgroup_usage) {
  uint64_t available = 0;
  constexpr std::string_view kKey = "MemAvailable:";
  if (const size_t at = meminfo.find(kKey); at != std::string_view::npos) {
    uint64_t kib = 0;
    if (LeadingNumber(meminfo.substr(at + kKey.size()), &kib)) available = kib * 1024;
  }
  // "max" (cgroup v2) or a near-2^63 figure (v1) mean no limit; both fail or exceed the machine.
  uint64_t limit = 0;
  uint64_t usage = 0;
  if (LeadingNumber(cgroup_limit, &limit) && LeadingNumber(cgroup_usage, &usage)) {
    const uint64_t left = limit > usage ? limit - usage : 0;
    available = available == 0 ? left : std::min(available, left);
  }
  return available;
}

uint64_t AvailableMemoryBytes() {
  const std::string meminfo = Slurp("/proc/meminfo");
  // cgroup v2 first, then v1's memory controller, as this process's namespace shows them.
  std::string limit = Slurp("/sys/fs/cgroup/memory.max");
  std::string usage = Slurp("/sys/fs/cgroup/memory.current");
  if (limit.empty()) {
    limit = Slurp("/sys/fs/cgroup/memory/memory.limit_in_bytes");
    usage = Slurp("/sys/fs/cgroup/memory/memory.usage_in_bytes");
  }
  return AvailableMemoryBytesOf(meminfo, limit, usage);
}

}  // namespace fe
