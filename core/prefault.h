// Asks the kernel to back a block about to be written whole with pages in one call, instead of
// taking a page fault at the first write to each page. A fault is a trap per 4 KB page: under a
// microsecond on a bare host, 10-14 us on some virtual machines, where one call costs about 5 us
// a page (docs/performance.md, "Page faults"). Only for memory the caller writes all of at once
// (a slab it links into a free list, an array it constructs): populating more would raise the
// peak RSS.
#pragma once

#include <cstddef>
#include <vector>

namespace fe {

// Backs the whole pages inside [p, p + bytes) with memory; false where the kernel cannot (before
// Linux 5.14), and the pages then fault in at their first write, as without it.
bool PrefaultForWrite(void* p, size_t bytes);

// Gives *v room for `capacity` items (if it has less) in a fresh block whose pages are backed at
// once, keeping its items: for a vector that grows to a large size it then fills, where
// std::vector's own growth faults the new block in page by page as it copies and fills.
template <typename T>
void ReservePrefaulted(std::vector<T>* v, size_t capacity) {
  if (capacity <= v->capacity()) return;
  std::vector<T> grown;
  grown.reserve(capacity);
  PrefaultForWrite(grown.data(), capacity * sizeof(T));
  grown.insert(grown.end(), v->begin(), v->end());
  v->swap(grown);
}

}  // namespace fe
