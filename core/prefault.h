// Asks the kernel to back a block about to be written whole with pages in one call, instead of
// taking a page fault at the first write to each page. A fault is a trap per 4 KB page: some
// 0.3 us on a bare host, 10-14 us on some virtual machines, where one call costs about 5 us a
// page (docs/performance.md, "Memory"). Only for memory the caller writes all of at once (a slab
// it links into a free list, an array it constructs): populating more would raise the peak RSS.
#pragma once

#include <cstddef>

namespace fe {

// Backs the whole pages inside [p, p + bytes) with memory; false where the kernel cannot (before
// Linux 5.14), and the pages then fault in at their first write, as without it.
bool PrefaultForWrite(void* p, size_t bytes);

}  // namespace fe
