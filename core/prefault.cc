#include "core/prefault.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

namespace fe {

namespace {
#ifndef MADV_POPULATE_WRITE
constexpr int MADV_POPULATE_WRITE = 23;  // Linux 5.14's; older headers lack it
#endif
}  // namespace

bool PrefaultForWrite(void* p, size_t bytes) {
  static const auto page_bytes = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = (reinterpret_cast<uintptr_t>(p) + page_bytes - 1) & ~(page_bytes - 1);
  const auto end = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(page_bytes - 1);
  if (end <= begin) return true;
  return ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE) == 0;
}

}  // namespace fe
