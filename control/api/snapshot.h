// What the API shows of a run: a copy of its counters, queues, NICs and (when asked) flows, taken
// by the run's own thread between slices of the loop, so the API thread never reads the fabric
// while it changes. Rows carry what the metrics and JSON views need, nothing more.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "control/emulation/emulation.h"
#include "control/report/rate_sampler.h"
#include "dataplane/drop_reason.h"
#include "dataplane/fabric.h"
#include "dataplane/realtime/lateness_histogram.h"

namespace fe::control::api {

// Per switch egress port and priority (a priority the port has a queue for).
struct QueueRow {
  uint32_t switch_index = 0;  // into RunSnapshot::switch_names
  uint16_t port = 0;
  uint8_t priority = 0;
  uint32_t depth_bytes = 0;
  uint32_t max_depth_bytes = 0;
  uint64_t ecn_marks = 0;
  uint64_t pause_frames_sent = 0;
  uint64_t resume_frames_sent = 0;
  uint64_t pause_frames_received = 0;
  double paused_s = 0;
  std::array<uint64_t, dp::kQueueDropReasons.size()> drops{};  // by dp::kQueueDropReasons
};

// Per switch egress port: what it sent, all priorities together.
struct PortRow {
  uint32_t switch_index = 0;
  uint16_t port = 0;
  uint64_t tx_packets = 0;
  uint64_t tx_wire_bytes = 0;  // frame + preamble + inter-frame gap
};

// Per host uplink and priority that its edge switch paused.
struct HostPauseRow {
  uint32_t host = 0;
  uint8_t priority = 0;
  uint64_t pause_frames_received = 0;
  double paused_s = 0;
};

struct NicRow {
  uint32_t host = 0;
  uint16_t port = 0;
  dp::NicCounters counters;
  int64_t rate_bps = 0;  // sum of the current rates of its QPs that are sending
  uint32_t active_qps = 0;
};

enum class FlowState { kPending, kActive, kCompleted, kGivenUp };
const char* FlowStateName(FlowState s);

struct FlowRow {
  uint32_t id = 0;
  uint32_t src_host = 0;
  uint32_t dst_host = 0;
  uint64_t size_bytes = 0;
  uint64_t bytes_delivered = 0;
  FlowState state = FlowState::kPending;
  std::optional<double> started_ns;
  std::optional<double> finished_ns;  // the delivery of its last byte, once completed
  int64_t rate_bps = 0;               // while active
  uint64_t cnps_received = 0;
  uint64_t retransmitted_packets = 0;
};

// A cumulative histogram: counts[i] values were <= upper_bounds_s[i]; count is all of them.
struct Histogram {
  std::vector<double> upper_bounds_s;
  std::vector<uint64_t> counts;
  uint64_t count = 0;
  double sum_s = 0;
};

struct RunSnapshot {
  std::string mode;  // "software" or "realtime"
  std::string scenario;
  bool finished = false;
  bool stopped = false;  // finished early: by a signal, run.stop_ns or a shutdown
  double simulated_time_ns = 0;
  std::optional<double> stop_ns;  // where the run stops, if it has a stop time
  double wall_time_s = 0;
  uint64_t events = 0;
  std::optional<double> pace;
  std::string read_only_reason;  // why POST /v1/commands is refused now; empty: it is not
  uint64_t flows_total = 0;
  uint64_t flows_pending = 0;
  uint64_t flows_active = 0;
  uint64_t flows_completed = 0;
  uint64_t flows_given_up = 0;
  dp::FabricTotals totals;
  std::vector<std::string> switch_names;
  std::vector<std::string> host_names;
  std::vector<PortRow> ports;
  std::vector<QueueRow> queues;
  std::vector<HostPauseRow> host_pauses;
  std::vector<NicRow> nics;
  Histogram fct;
  std::optional<Histogram> lateness;  // real-time mode only
  bool has_flows = false;             // flows is filled only when asked for
  std::vector<FlowRow> flows;

  // Software mode: flows finished (completed or given up) over all; with a stop time, at least
  // the share of it simulated so far. Real-time mode: the share of the stop time gone, none
  // without one (it runs until stopped). 1 once the run has finished, unless it stopped early.
  std::optional<double> Progress() const;
};

// What a snapshot needs besides the fabric; fixed for a run.
struct SnapshotSource {
  const Emulation* emulation = nullptr;
  const RateSampler* rates = nullptr;  // an unstarted sampler: the QPs' current rates
  std::string mode;
  std::string scenario;
  std::optional<double> stop_ns;
  std::optional<double> pace;
};

// What changes from one snapshot to the next besides the fabric.
struct RunProgress {
  uint64_t events = 0;
  double wall_time_s = 0;
  bool finished = false;
  bool stopped = false;  // finished before its messages did
  std::string read_only_reason;
  const dp::LatenessHistogram* lateness = nullptr;  // real-time mode
};

RunSnapshot TakeSnapshot(const SnapshotSource& source, const RunProgress& progress,
                         bool with_flows);

// Buckets in seconds: FCTs from 1 us to 10 s in 1-2-5 steps.
Histogram FctHistogram(const dp::MessageTable& messages);
// The lateness histogram's counts at power-of-two bounds from 64 ns to 2^30 ns (1.07 s). It
// records whole nanoseconds (rounded down), so a count at bound 2^k ns holds every event that ran
// less than 2^k ns late: exact, however the fine buckets lie.
Histogram LatenessBuckets(const dp::LatenessHistogram& h);

}  // namespace fe::control::api
