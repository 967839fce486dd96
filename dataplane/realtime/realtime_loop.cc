#include "dataplane/realtime/realtime_loop.h"

#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include <cstdio>
#include <string>

namespace fe::dp {

namespace {
// How often the loop looks at the stop request and the clock for progress: rarely enough to cost
// nothing, often enough that Ctrl-C feels immediate.
constexpr Time kCheckInterval = Time::FromUs(100);
}  // namespace

RealtimeLoop::RealtimeLoop(Scheduler* sched, const TscClock* clock,
                           std::span<const RealtimeAttachment> attachments,
                           RealtimeLoopParams params)
    : sched_(sched),
      clock_(clock),
      attachments_(attachments.begin(), attachments.end()),
      params_(std::move(params)),
      rx_bursts_(attachments_.size()),
      rx_count_(attachments_.size(), 0) {}

RealtimeLoop::~RealtimeLoop() {
  FreeRings();
  for (rte_ring* r : rx_rings_) rte_ring_free(r);
  for (rte_ring* r : tx_rings_) rte_ring_free(r);
}

void RealtimeLoop::RunDue(Time now) {
  const Time threshold = params_.behind_threshold;
  stats_.events_run += sched_->RunUntilObserved(now, [this, threshold](Time due) {
    const Time late = clock_->Now() - due;
    interval_.lateness.Record(late);
    if (late > threshold) ++interval_.events_behind;
  });
  sched_->AdvanceTo(now);
}

void RealtimeLoop::EndFabricPass(const PassStamps& t, bool worked) {
  fabric_lcore_.rx += t.received - t.start;
  fabric_lcore_.events += t.ran - t.received;
  fabric_lcore_.enter += t.entered - t.ran;
  fabric_lcore_.tx += t.sent - t.entered;
  ++stats_.iterations;
  const Time start = t.start;
  if (fabric_lcore_.passes++ > 0 && worked) {
    const Time gap = start - last_pass_start_;
    fabric_lcore_.pass_gap.Record(gap);
    const auto gap_ns = static_cast<uint64_t>(gap.ps() / 1000);
    if (gap_ns > interval_max_gap_ns_) interval_max_gap_ns_ = gap_ns;
  }
  last_pass_start_ = start;
}

// Returns true when the loop must stop.
bool RealtimeLoop::Checkpoint(Time now, Time* next_check, Time* next_progress) {
  *next_check = now + kCheckInterval;
  for (const RealtimeAttachment& a : attachments_) a.host->ProbeHostMac(now);
  if (now >= *next_progress) {
    *next_progress = now + params_.progress_interval;
    interval_.now = now;
    interval_.rx_frames = interval_.tx_frames = 0;
    interval_.rx_lost.clear();
    for (const RealtimeAttachment& a : attachments_) {
      interval_.rx_frames += a.host->counters().rx_frames;
      interval_.tx_frames += a.host->counters().tx_frames;
      interval_.rx_lost.push_back(a.port->RxLoss().total());
    }
    interval_.max_pass_gap_ns = {interval_max_gap_ns_};
    interval_max_gap_ns_ = 0;
    if (params_.io_lcore >= 0) {
      interval_.max_pass_gap_ns.push_back(
          io_interval_max_gap_ns_.exchange(0, std::memory_order_relaxed));
    }
    if (params_.on_progress) params_.on_progress(interval_);
    stats_.lateness.Merge(interval_.lateness);
    stats_.events_behind += interval_.events_behind;
    interval_.lateness.Reset();
    interval_.events_behind = 0;
  }
  if (params_.stop_requested && params_.stop_requested()) {
    stats_.stopped_by_request = true;
    return true;
  }
  return now >= params_.duration;
}

StatusOr<RealtimeStats> RealtimeLoop::Run() {
  stats_ = RealtimeStats();
  interval_ = RealtimeProgress();
  fabric_lcore_ = LcoreStats();
  fabric_lcore_.lcore = static_cast<int>(rte_lcore_id());
  fabric_lcore_.role = params_.io_lcore < 0 ? "fabric and I/O" : "fabric";
  interval_max_gap_ns_ = 0;
  StatusOr<RealtimeStats> result = params_.io_lcore < 0 ? RunOneLcore() : RunTwoLcores();
  if (!result.ok()) return result;
  stats_.lcores.push_back(fabric_lcore_);
  if (params_.io_lcore >= 0) stats_.lcores.push_back(io_lcore_);
  // The last interval's events join the totals.
  stats_.lateness.Merge(interval_.lateness);
  stats_.events_behind += interval_.events_behind;
  stats_.elapsed = clock_->Now();
  return stats_;
}

StatusOr<RealtimeStats> RealtimeLoop::RunOneLcore() {
  Time next_check = Time::Zero();
  Time next_progress = params_.progress_interval;
  for (;;) {
    const Time start = clock_->Now();
    // Receive first, then read the clock: a frame enters the fabric no earlier than it arrived,
    // so the emulated path can only add delay, never remove any.
    for (size_t i = 0; i < attachments_.size(); ++i) {
      rx_count_[i] = attachments_[i].port->RxBurst(rx_bursts_[i].data(), kBurstSize);
    }
    const Time now = clock_->Now();
    const uint64_t events_before = stats_.events_run;
    RunDue(now);
    const Time ran = clock_->Now();
    bool worked = stats_.events_run != events_before;
    for (size_t i = 0; i < attachments_.size(); ++i) worked = worked || rx_count_[i] > 0;
    for (size_t i = 0; i < attachments_.size(); ++i) {
      if (rx_count_[i] > 0) attachments_[i].host->OnRx(rx_bursts_[i].data(), rx_count_[i]);
    }
    const Time entered = clock_->Now();
    for (const RealtimeAttachment& a : attachments_) {
      Fifo<rte_mbuf*>& out = a.host->outbox();
      while (!out.empty()) a.port->Send(out.pop());
      a.port->Flush();
    }
    EndFabricPass({start, now, ran, entered, clock_->Now()}, worked);
    if (now >= next_check && Checkpoint(now, &next_check, &next_progress)) break;
  }
  return stats_;
}

StatusOr<RealtimeStats> RealtimeLoop::RunTwoLcores() {
  const auto io = static_cast<unsigned>(params_.io_lcore);
  if (io == rte_lcore_id() || !rte_lcore_is_enabled(io)) {
    return Status::Error("I/O lcore " + std::to_string(io) +
                         " is not an EAL worker lcore (give the EAL two lcores, e.g. -l 0-1)");
  }
  if (rx_rings_.empty()) {
    for (size_t i = 0; i < attachments_.size(); ++i) {
      for (auto* rings : {&rx_rings_, &tx_rings_}) {
        char name[RTE_RING_NAMESIZE];
        std::snprintf(name, sizeof(name), "rt%c%zu_%p", rings == &rx_rings_ ? 'r' : 't', i,
                      static_cast<void*>(this));
        rte_ring* r =
            rte_ring_create(name, params_.ring_size, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
        if (r == nullptr) {
          return Status::Error(std::string("cannot create ring ") + name + ": " +
                               rte_strerror(rte_errno));
        }
        rings->push_back(r);
      }
    }
  }
  io_stop_.store(false, std::memory_order_relaxed);
  io_ring_drops_ = 0;
  const int ret = rte_eal_remote_launch(&RealtimeLoop::IoLcoreMain, this, io);
  if (ret != 0) {
    return Status::Error("cannot launch the I/O lcore " + std::to_string(io) + ": " +
                         rte_strerror(-ret));
  }
  Time next_check = Time::Zero();
  Time next_progress = params_.progress_interval;
  for (;;) {
    const Time start = clock_->Now();
    for (size_t i = 0; i < attachments_.size(); ++i) {
      rx_count_[i] = static_cast<uint16_t>(rte_ring_sc_dequeue_burst(
          rx_rings_[i], reinterpret_cast<void**>(rx_bursts_[i].data()), kBurstSize, nullptr));
    }
    const Time now = clock_->Now();
    const uint64_t events_before = stats_.events_run;
    RunDue(now);
    const Time ran = clock_->Now();
    bool worked = stats_.events_run != events_before;
    for (size_t i = 0; i < attachments_.size(); ++i) worked = worked || rx_count_[i] > 0;
    for (size_t i = 0; i < attachments_.size(); ++i) {
      if (rx_count_[i] > 0) attachments_[i].host->OnRx(rx_bursts_[i].data(), rx_count_[i]);
    }
    const Time entered = clock_->Now();
    for (size_t i = 0; i < attachments_.size(); ++i) {
      Fifo<rte_mbuf*>& out = attachments_[i].host->outbox();
      while (!out.empty()) {
        rte_mbuf* m = out.pop();
        if (rte_ring_sp_enqueue(tx_rings_[i], m) != 0) {
          rte_pktmbuf_free(m);
          ++stats_.ring_drops;
        }
      }
    }
    EndFabricPass({start, now, ran, entered, clock_->Now()}, worked);
    if (now >= next_check && Checkpoint(now, &next_check, &next_progress)) break;
  }
  io_stop_.store(true, std::memory_order_release);
  rte_eal_wait_lcore(io);
  stats_.ring_drops += io_ring_drops_;
  FreeRings();
  return stats_;
}

int RealtimeLoop::IoLcoreMain(void* self) {
  static_cast<RealtimeLoop*>(self)->IoLoop();
  return 0;
}

void RealtimeLoop::IoLoop() {
  io_lcore_ = LcoreStats();
  io_lcore_.lcore = static_cast<int>(rte_lcore_id());
  io_lcore_.role = "I/O";
  rte_mbuf* burst[kBurstSize];
  Time last_start;
  while (!io_stop_.load(std::memory_order_acquire)) {
    const Time start = clock_->Now();
    Time rx;
    Time tx;
    bool moved = false;
    for (size_t i = 0; i < attachments_.size(); ++i) {
      EthPort* port = attachments_[i].port;
      const Time rx_start = clock_->Now();
      const uint16_t n = port->RxBurst(burst, kBurstSize);
      if (n > 0) {
        const unsigned queued = rte_ring_sp_enqueue_burst(
            rx_rings_[i], reinterpret_cast<void* const*>(burst), n, nullptr);
        for (unsigned j = queued; j < n; ++j) rte_pktmbuf_free(burst[j]);
        io_ring_drops_ += n - queued;
      }
      const Time tx_start = clock_->Now();
      const unsigned m = rte_ring_sc_dequeue_burst(tx_rings_[i], reinterpret_cast<void**>(burst),
                                                   kBurstSize, nullptr);
      for (unsigned j = 0; j < m; ++j) port->Send(burst[j]);
      port->Flush();
      moved = moved || n > 0 || m > 0;
      rx += tx_start - rx_start;
      tx += clock_->Now() - tx_start;
    }
    io_lcore_.rx += rx;
    io_lcore_.tx += tx;
    if (io_lcore_.passes++ > 0 && moved) {
      const Time gap = start - last_start;
      io_lcore_.pass_gap.Record(gap);
      const auto gap_ns = static_cast<uint64_t>(gap.ps() / 1000);
      if (gap_ns > io_interval_max_gap_ns_.load(std::memory_order_relaxed)) {
        io_interval_max_gap_ns_.store(gap_ns, std::memory_order_relaxed);
      }
    }
    last_start = start;
  }
}

void RealtimeLoop::FreeRings() {
  void* m = nullptr;
  for (auto* rings : {&rx_rings_, &tx_rings_}) {
    for (rte_ring* r : *rings) {
      while (rte_ring_dequeue(r, &m) == 0) rte_pktmbuf_free(static_cast<rte_mbuf*>(m));
    }
  }
}

}  // namespace fe::dp
