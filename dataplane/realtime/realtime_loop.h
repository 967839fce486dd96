// The real-time loop: real frames in, every event due by the TSC clock run, real frames out.
// One pass:
//   rx bursts from every external port -> now = TSC
//   -> every scheduler event due by now runs, each one's lateness (TSC at its run - due) recorded
//   -> the scheduler's now moves to now -> ExternalHost::OnRx: the received frames enter their
//      hosts' uplinks at now -> outboxes drain into tx bursts.
// Reading the clock after the receive means a frame never enters before it arrived; running an
// event only once the TSC has passed its due time means it never runs early: the emulated delays
// can come out longer, never shorter. The model's code is the software mode's; only the source
// of "now" differs. Events run with the scheduler's clock at their due time, not at the (later)
// moment they actually run, so a late loop shows up as lateness, never as a silently stretched
// emulated time.
//
// Two lcores: the I/O lcore polls the devices and passes bursts through single-producer /
// single-consumer rte_rings to the fabric lcore (the caller's), which runs the model. A full
// ring drops the frame and counts it; nothing blocks.
#pragma once

#include <rte_ring.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/scheduler.h"
#include "core/status.h"
#include "core/units.h"
#include "dataplane/realtime/eth_port.h"
#include "dataplane/realtime/external_host.h"
#include "dataplane/realtime/lateness_histogram.h"
#include "dataplane/realtime/tsc_clock.h"

namespace fe::dp {

struct RealtimeAttachment {
  EthPort* port;
  ExternalHost* host;
};

// Where one lcore's time went. A pass is one turn of its loop: poll, run what is due, hand on.
// For a pass that moved frames (or, on the fabric lcore, ran events), the gap since the previous
// pass started is the longest its frames waited for this lcore to look at them: the lcore's own
// lateness. Idle passes are not counted, so a busy-polling lcore's many short empty turns do not
// hide the long ones that carry the traffic. (An event's lateness is measured apart.)
struct LcoreStats {
  int lcore = -1;
  std::string role;  // "fabric and I/O" (one lcore), "fabric" or "I/O" (two)
  uint64_t passes = 0;
  LatenessHistogram pass_gap;
  // Summed over the passes: receiving (device bursts, or the ring from the I/O lcore), running
  // due events, frames entering their hosts' uplinks, transmitting (device or ring).
  Time rx;
  Time events;
  Time enter;
  Time tx;
};

struct RealtimeProgress {
  Time now;                    // real time since the clock started
  LatenessHistogram lateness;  // of the events of the last interval only
  uint64_t events_behind = 0;  // in the last interval, later than behind_threshold
  uint64_t rx_frames = 0;      // totals so far, all ports
  uint64_t tx_frames = 0;
  // By attachment, totals so far: frames lost before the loop received them (EthPort::RxLoss).
  std::vector<uint64_t> rx_lost;
  // By lcore (the fabric's first), in the last interval: the longest gap between passes.
  std::vector<uint64_t> max_pass_gap_ns;
};

struct RealtimeLoopParams {
  Time duration = Time::Infinite();  // stops once this much real time has passed
  // An event that runs later than this means the loop has fallen behind real time: the emulated
  // delays it stood for were longer than the scenario says.
  Time behind_threshold = Time::FromUs(100);
  Time progress_interval = Time::FromSeconds(1.0);
  // Polled between bursts, about every 100 us: returns true to stop (a signal arrived, ...).
  std::function<bool()> stop_requested;
  // Called every progress_interval, from the fabric lcore; may be empty.
  std::function<void(const RealtimeProgress&)> on_progress;
  // Two-lcore mode: the EAL lcore id that polls the devices; -1 polls them on the caller's lcore.
  int io_lcore = -1;
  uint32_t ring_size = 4096;  // per port and direction, a power of two
};

struct RealtimeStats {
  Time elapsed;
  uint64_t iterations = 0;
  uint64_t events_run = 0;
  LatenessHistogram lateness;
  uint64_t events_behind = 0;  // later than behind_threshold
  bool stopped_by_request = false;
  uint64_t ring_drops = 0;         // two-lcore mode: frames a full ring refused
  std::vector<LcoreStats> lcores;  // the fabric's first
  bool fell_behind() const { return events_behind > 0; }
};

class RealtimeLoop {
 public:
  // Everything must outlive the loop; sched's clock must read the same time base as clock
  // (the scheduler starts at zero, as the TSC clock does when made).
  RealtimeLoop(Scheduler* sched, const TscClock* clock,
               std::span<const RealtimeAttachment> attachments, RealtimeLoopParams params);
  ~RealtimeLoop();
  RealtimeLoop(const RealtimeLoop&) = delete;
  RealtimeLoop& operator=(const RealtimeLoop&) = delete;

  // Runs until the duration has passed or stop_requested says so; on return every frame still
  // in a ring has been freed and every port's tx buffer flushed.
  StatusOr<RealtimeStats> Run();

 private:
  // One loop iteration's model step at `now`: due events, then the clock catches up.
  void RunDue(Time now);
  bool Checkpoint(Time now, Time* next_check, Time* next_progress);
  StatusOr<RealtimeStats> RunOneLcore();
  StatusOr<RealtimeStats> RunTwoLcores();
  static int IoLcoreMain(void* self);
  void IoLoop();
  void FreeRings();
  // When a pass of the fabric lcore started, and ended each of its steps.
  struct PassStamps {
    Time start, received, ran, entered, sent;
  };
  // Ends a pass: its time by step, its gap from the last; `worked`: it moved frames or ran events.
  void EndFabricPass(const PassStamps& t, bool worked);

  Scheduler* sched_;
  const TscClock* clock_;
  std::vector<RealtimeAttachment> attachments_;
  RealtimeLoopParams params_;
  RealtimeStats stats_;
  RealtimeProgress interval_;
  // Each iteration's received bursts, by attachment, held until the clock has been read.
  std::vector<std::array<rte_mbuf*, kBurstSize>> rx_bursts_;
  std::vector<uint16_t> rx_count_;
  std::vector<rte_ring*> rx_rings_;   // two-lcore mode: I/O -> fabric, by attachment
  std::vector<rte_ring*> tx_rings_;   // fabric -> I/O
  std::atomic<bool> io_stop_{false};  // fabric lcore -> I/O lcore
  uint64_t io_ring_drops_ = 0;        // written by the I/O lcore only, read after it has joined
  LcoreStats fabric_lcore_;
  Time last_pass_start_;
  uint64_t interval_max_gap_ns_ = 0;
  LcoreStats io_lcore_;  // written by the I/O lcore only, read after it has joined
  // The I/O lcore's longest gap of the interval, taken (and reset) by the fabric lcore.
  std::atomic<uint64_t> io_interval_max_gap_ns_{0};
};

}  // namespace fe::dp
