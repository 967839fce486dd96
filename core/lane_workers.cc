#include "core/lane_workers.h"

#include <chrono>

namespace fe {

namespace {

// Spins on `ready` with the CPU's pause hint, yielding the core now and then so that a machine
// running more threads than cores still lets the awaited thread run.
template <typename Ready>
void SpinUntil(Ready&& ready) {
  for (uint32_t spins = 0; !ready(); ++spins) {
    if ((spins & 1023) == 1023) {
      std::this_thread::yield();
    } else {
      __builtin_ia32_pause();
    }
  }
}

}  // namespace

LaneWorkers::LaneWorkers(uint32_t lanes, const std::function<void()>& on_start) {
  for (uint32_t lane = 1; lane < lanes; ++lane) {
    threads_.emplace_back([this, lane, on_start] { Loop(lane, on_start); });
  }
}

LaneWorkers::~LaneWorkers() {
  stop_ = true;
  NextRound();
  for (std::thread& t : threads_) t.join();
}

void LaneWorkers::NextRound() {
  // Sequentially consistent, with the parking lane's count and wait: either this sees the lane
  // parked, or the lane's wait sees the new round (and does not sleep).
  round_.fetch_add(1);
  if (parked_.load() > 0) round_.notify_all();
}

void LaneWorkers::AwaitRound(uint32_t seen) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point since = Clock::now();
  for (uint32_t spins = 0; round_.load(std::memory_order_acquire) == seen; ++spins) {
    if ((spins & 1023) != 1023) {
      __builtin_ia32_pause();
    } else if (Clock::now() - since < kParkAfter) {
      std::this_thread::yield();
    } else {
      parked_.fetch_add(1);
      round_.wait(seen);
      parked_.fetch_sub(1);
    }
  }
}

void LaneWorkers::Run(const std::function<void(uint32_t)>& work) {
  work_ = &work;
  done_.store(0, std::memory_order_relaxed);
  NextRound();
  work(0);
  const auto others = static_cast<uint32_t>(threads_.size());
  SpinUntil([&] { return done_.load(std::memory_order_acquire) == others; });
}

void LaneWorkers::Loop(uint32_t lane, const std::function<void()>& on_start) {
  if (on_start) on_start();
  uint32_t seen = 0;
  for (;;) {
    AwaitRound(seen);
    ++seen;
    if (stop_) return;
    (*work_)(lane);
    done_.fetch_add(1, std::memory_order_release);
  }
}

}  // namespace fe
