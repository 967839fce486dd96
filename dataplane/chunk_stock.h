// The memory a host-page packet pool grows by, made ready ahead of its growths on a thread of its
// own. A chunk is mapped on a huge-page boundary, advised to use a transparent huge page, and
// backed (its pages zeroed by the kernel) before the pool needs it, so that a growth in the
// middle of a run takes no page fault. Backing a 2 MB chunk costs 0.2 ms in a quiet hour and up
// to 5 ms when the host must first back the guest's memory; done by the run itself, it stalls
// the lane that grows the pool and, at the window's end, every other lane with it. The pool's
// first chunk, taken as the pool is made, is backed while the run is still being set up.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

namespace fe::dp {

class ChunkStock {
 public:
  static constexpr size_t kChunkBytes = size_t{2} << 20;  // a transparent huge page

  // Up to `chunks` chunks, made one ahead of those taken.
  explicit ChunkStock(size_t chunks);
  // Stops the thread and unmaps the chunks never taken (those taken are the taker's to unmap).
  ~ChunkStock();
  ChunkStock(const ChunkStock&) = delete;
  ChunkStock& operator=(const ChunkStock&) = delete;

  // The next chunk, waiting for the thread to make it if need be: the first as soon as it is
  // mapped (the thread backs it meanwhile), the others backed. nullptr once every chunk is
  // taken, or when the kernel refused a mapping.
  char* Take();
  // Waits until the thread backs no chunk, then gives the pages of the chunks made and not taken
  // back to the kernel (to read as zero): the pool's own memory goes back at the run's end, and
  // so does the next growth's. Until the next Take the thread backs nothing more, so pages the
  // caller gives back then stay given back.
  void ReleaseSpare();

 private:
  void Make();
  // Clears backing_ (set when a chunk's making began) and tells the waiters.
  void Backed();

  const size_t chunks_;
  std::mutex lock_;
  std::condition_variable changed_;
  std::vector<char*> made_;  // in order; nullptr where a mapping failed
  size_t taken_ = 0;
  bool backing_ = false;  // a chunk is being made or backed
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace fe::dp
