// The threads a multi-core run spreads each window's domains over: started once, woken for every
// window and waited for at its end (a barrier of atomics, so that a window of a few hundred
// microseconds does not pay a futex's wake-up latency twice).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

namespace fe {

class LaneWorkers {
 public:
  // Starts lanes - 1 threads (lane 0 is the caller's); each runs on_start first (DPDK's thread
  // registration, which gives it a mempool cache), nothing if empty.
  LaneWorkers(uint32_t lanes, const std::function<void()>& on_start);
  ~LaneWorkers();
  LaneWorkers(const LaneWorkers&) = delete;
  LaneWorkers& operator=(const LaneWorkers&) = delete;

  uint32_t lanes() const { return static_cast<uint32_t>(threads_.size()) + 1; }
  // Runs work(i) for every lane i at once, lane 0 on the calling thread, and returns once every
  // lane is done: what the lanes wrote is then visible to the caller.
  void Run(const std::function<void(uint32_t)>& work);

 private:
  void Loop(uint32_t lane, const std::function<void()>& on_start);

  std::vector<std::thread> threads_;
  const std::function<void(uint32_t)>* work_ = nullptr;
  bool stop_ = false;
  // Bumped to start a round (or to stop); the lanes count themselves done. Apart, so the
  // lanes' spinning on one does not bounce the other's line.
  alignas(64) std::atomic<uint64_t> round_{0};
  alignas(64) std::atomic<uint32_t> done_{0};
};

}  // namespace fe
