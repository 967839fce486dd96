// The threads a multi-core run spreads each window's domains over: started once, woken for every
// window and waited for at its end (a barrier of atomics, so that a window of a few hundred
// microseconds does not pay a futex's wake-up latency twice). A lane that has waited for a round
// longer than a window lasts (the run is between slices, paced, or over) parks until the next,
// leaving its CPU to other threads: the outputs' writers once the run is over.
#pragma once

#include <atomic>
#include <chrono>
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
  // Returns once round_ is no longer `seen`: spinning, then parked.
  void AwaitRound(uint32_t seen);
  // Starts a round (or the stop), waking parked lanes.
  void NextRound();
  // Longer than a window (hundreds of microseconds at most), short against a pause between
  // slices or the outputs' writing.
  static constexpr std::chrono::microseconds kParkAfter{2000};

  std::vector<std::thread> threads_;
  const std::function<void(uint32_t)>* work_ = nullptr;
  bool stop_ = false;
  // Bumped to start a round (or to stop); the lanes count themselves done. Apart, so the
  // lanes' spinning on one does not bounce the other's line.
  alignas(64) std::atomic<uint32_t> round_{0};  // compared for change only: it may wrap
  std::atomic<uint32_t> parked_{0};             // lanes asleep on round_, rarely written
  alignas(64) std::atomic<uint32_t> done_{0};
};

}  // namespace fe
