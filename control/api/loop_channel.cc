#include "control/api/loop_channel.h"

#include <utility>

namespace fe::control::api {

LoopChannel::SnapshotPtr LoopChannel::Snapshot(bool with_flows, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  if (finished_) return latest_;
  const uint64_t ticket = ++asked_ticket_;
  want_flows_ = want_flows_ || with_flows;
  work_.store(true, std::memory_order_release);
  asked_.notify_all();
  if (!answered_.wait_for(lock, timeout, [&] { return finished_ || served_ticket_ >= ticket; })) {
    return nullptr;
  }
  return latest_;
}

void LoopChannel::Post(Task task) {
  std::unique_lock lock(mu_);
  if (finished_) {
    lock.unlock();
    task(true);
    return;
  }
  tasks_.push_back(std::move(task));
  work_.store(true, std::memory_order_release);
  asked_.notify_all();
}

void LoopChannel::Serve(const Taker& take) {
  if (!HasWork()) return;
  std::unique_lock lock(mu_);
  const uint64_t ticket = asked_ticket_;
  const bool with_flows = want_flows_;
  want_flows_ = false;
  std::deque<Task> tasks;
  tasks.swap(tasks_);
  work_.store(false, std::memory_order_release);
  const bool snapshot_due = ticket > served_ticket_;
  lock.unlock();
  // Tasks first: a snapshot asked for together with a command shows the command applied.
  for (Task& t : tasks) t(false);
  if (!snapshot_due) return;
  SnapshotPtr snapshot = take(with_flows);
  lock.lock();
  latest_ = std::move(snapshot);
  served_ticket_ = ticket;
  lock.unlock();
  answered_.notify_all();
}

void LoopChannel::WaitForWork(std::chrono::steady_clock::time_point until) {
  std::unique_lock lock(mu_);
  asked_.wait_until(lock, until, [&] { return HasWork(); });
}

void LoopChannel::Finish(SnapshotPtr last) {
  std::unique_lock lock(mu_);
  latest_ = std::move(last);
  finished_ = true;
  served_ticket_ = asked_ticket_;
  std::deque<Task> tasks;
  tasks.swap(tasks_);
  work_.store(false, std::memory_order_release);
  lock.unlock();
  answered_.notify_all();
  for (Task& t : tasks) t(true);
}

}  // namespace fe::control::api
