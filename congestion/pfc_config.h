// Settings and timers, not the decision: BufferAdmission::PfcCheck (congestion/buffer_admission.h)
// decides XOFF/XON, dataplane/switch.cc sends the pause frames and dataplane/egress_port.cc obeys
// those it receives.
//
// Priority flow control (IEEE 802.1Qbb): thresholds, headroom sizing, and the timing of pause
// frames on both ends of a link. Pure: callers pass `now` and get decisions back; the frames
// themselves are built and sent by the dataplane.
//
// Quanta: a PFC frame carries, per priority, a pause time in quanta of 512 bit times at the
// link's rate; 0 quanta means "resume now" (XON).
#pragma once

#include <cstdint>
#include <optional>

#include "core/status.h"
#include "core/units.h"

namespace fe::cong {

inline constexpr int64_t kPauseQuantumBytes = 512 / 8;
// 802.1Qbb's bound on the peer's reaction time, 60 quanta (3840 bytes), as quoted by Cisco's
// "Priority Flow Control: Build Reliable Layer 2 Infrastructure" (see docs/switch-buffers.md).
inline constexpr int64_t kDefaultResponseQuanta = 60;
// A PFC frame on the wire: 64-byte minimum frame + 8 bytes preamble/SFD + 12 bytes IFG.
inline constexpr int64_t kPauseFrameWireBytes = 64 + 8 + 12;

// How long `quanta` pause a queue on a link of `rate`: quanta * 512 / rate, rounded up to the ps.
constexpr Time PauseDuration(uint16_t quanta, Rate rate) {
  return rate.SerializationTime(int64_t{quanta} * kPauseQuantumBytes);
}

// ---- Thresholds (used by the shared buffer, congestion/buffer_admission.h) ----

// XOFF/XON of one lossless priority group, on the PG's use of the shared pool (bytes beyond its
// reserved minimum; headroom excluded).
struct PfcThresholdParams {
  // Static XOFF. Unset: dynamic, the priority's alpha x free shared bytes, as Broadcom-style
  // MMUs and SONiC's dynamic_th do.
  std::optional<int64_t> xoff_bytes = std::nullopt;
  // Static XON; needs a static xoff_bytes and must not exceed it. Unset: XON when the usage has
  // fallen xon_offset_bytes below the (possibly moving) XOFF threshold.
  std::optional<int64_t> xon_bytes = std::nullopt;
  int64_t xon_offset_bytes = 8192;  // two 4 KB frames of hysteresis
};

struct PfcThresholdConfig {
  bool dynamic_xoff = true;
  int64_t xoff_bytes = 0;  // static XOFF
  bool static_xon = false;
  int64_t xon_bytes = 0;  // static XON
  int64_t xon_offset_bytes = 0;
};

StatusOr<PfcThresholdConfig> Compile(const PfcThresholdParams& params);

// ---- Headroom ----

// The link a lossless PG receives on.
struct HeadroomParams {
  Rate link_rate = Rate::FromGbps(100);
  double cable_length_m = 100.0;
  // 5 ns/m is light at ~0.67 c, fibre or twin-ax (Cisco quotes 4.76 ns/m copper, 5.13 SMF).
  Time propagation_per_m = Time::FromPs(5000);
  // Largest frame either end sends, as the buffer counts it (headers and FCS included). 9216 is
  // the usual jumbo limit; use the fabric's real maximum to save buffer.
  int64_t max_frame_bytes = 9216;
  // The peer's time from receiving a pause to stopping (interface + MAC-control delay).
  // Unset: kDefaultResponseQuanta quanta, i.e. 3840 bytes at any rate.
  std::optional<Time> peer_response_time = std::nullopt;
};

// Bytes a PG must be able to absorb after it raises XOFF so that nothing is lost:
//   3 x max_frame_bytes      the frame whose arrival crossed XOFF (a store-and-forward buffer
//                            counts a packet only once fully received, so XOFF is raised one
//                            frame late), the frame the receiver is sending when it wants to
//                            pause (the pause cannot pre-empt it), and the frame the peer has
//                            started when the pause arrives
//   + kPauseFrameWireBytes   the pause frame itself
//   + 2 x cable bytes        bytes already in the cable, and bytes sent while the pause travels
//   + response bytes         sent during the peer's reaction time
// Cable and response bytes are rounded up. Refuses non-positive rates, negative lengths/times.
StatusOr<int64_t> ComputeHeadroomBytes(const HeadroomParams& params);

// ---- Pause sender (the congested end) ----

struct PauseSenderParams {
  uint16_t quanta = 0xFFFF;  // carried by every XOFF frame
  // An XOFF frame is refreshed once this fraction of its pause time has elapsed, so a congested
  // PG never lets the peer's pause expire; in (0, 1).
  double refresh_fraction = 0.5;
};

struct PauseSenderConfig {
  uint16_t quanta = 0;
  Time pause_duration;
  Time refresh_period;
};

StatusOr<PauseSenderConfig> Compile(const PauseSenderParams& params, Rate link_rate);

// Refresh timing of one (port, priority) that sends pauses. The shared buffer decides XOFF/XON
// edges; this remembers when the next refresh is due while XOFF holds.
class PauseSender {
 public:
  // An XOFF frame (with config.quanta) was sent at now. Returns when the next refresh is due.
  Time OnXoffSent(const PauseSenderConfig& config, Time now) {
    next_refresh_ = now + config.refresh_period;
    return next_refresh_;
  }
  // An XON frame (0 quanta) was sent: no more refreshes.
  void OnXonSent() { next_refresh_ = Time::Infinite(); }
  // True when the caller should send another XOFF now. Timers armed for an earlier XOFF fire
  // harmlessly: they find the refresh not yet due (or XON sent meanwhile).
  bool RefreshDue(Time now) const { return now >= next_refresh_; }
  Time next_refresh() const { return next_refresh_; }

 private:
  Time next_refresh_ = Time::Infinite();
};

// ---- Pause receiver (the paused end) ----

// The pause state of one egress (port, priority), and the time it has spent paused.
class PauseReceiver {
 public:
  // A PFC frame enabled this priority with `quanta`. It replaces any pause in progress: the
  // queue stays paused until now + PauseDuration(quanta, rate); quanta 0 resumes now.
  void OnPauseFrame(Time now, uint16_t quanta, Rate rate);
  bool Paused(Time now) const { return now < paused_until_; }
  Time paused_until() const { return paused_until_; }
  // Total time paused up to now: each stretch of continuous pause is counted once, however many
  // refreshes extended it.
  Time PausedTime(Time now) const;

 private:
  Time closed_total_;   // paused time of stretches that ended before stretch_start_
  Time stretch_start_;  // start of the latest stretch
  Time paused_until_;   // its end (in the past once expired)
};

}  // namespace fe::cong
