// The one meeting point of the API's threads and the run's loop. The API asks; the loop, between
// two slices of its work, answers: it takes a snapshot when one was asked for and runs the tasks
// queued for it (commands), at its current time. Nothing the API does waits inside the loop: the
// loop looks at one atomic flag per slice and does work only when some was asked for.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

#include "control/api/snapshot.h"

namespace fe::control::api {

class LoopChannel {
 public:
  using SnapshotPtr = std::shared_ptr<const RunSnapshot>;
  // Takes a snapshot, with the flows if asked; runs on the loop's thread.
  using Taker = std::function<SnapshotPtr(bool with_flows)>;
  // Runs on the loop's thread between slices with run_over false, or, if the run ended first,
  // on the finishing thread with run_over true.
  using Task = std::function<void(bool run_over)>;

  // API side. A snapshot taken after this call (or the run's final one); null if the loop did not
  // answer within `timeout` (it is busy with a slice that long, or between its end and Finish).
  SnapshotPtr Snapshot(bool with_flows, std::chrono::milliseconds timeout);
  void Post(Task task);

  // Loop side: cheap when nothing was asked.
  bool HasWork() const { return work_.load(std::memory_order_acquire); }
  void Serve(const Taker& take);
  // Waits until `until` or until some work arrives, whichever is first (a paced run's pause).
  void WaitForWork(std::chrono::steady_clock::time_point until);
  // The run has ended: `last` answers every snapshot from now on; queued tasks run with
  // run_over true.
  void Finish(SnapshotPtr last);

 private:
  std::mutex mu_;
  std::condition_variable answered_;  // API threads wait here for a snapshot
  std::condition_variable asked_;     // a paced loop waits here for work
  std::atomic<bool> work_{false};
  uint64_t asked_ticket_ = 0;   // snapshots asked for so far
  uint64_t served_ticket_ = 0;  // the newest snapshot answers every ticket up to this
  bool want_flows_ = false;
  bool finished_ = false;
  SnapshotPtr latest_;
  std::deque<Task> tasks_;
};

}  // namespace fe::control::api
