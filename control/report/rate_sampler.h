// Per-flow rate samples for plots: every interval of virtual time, the congestion-control rate of
// each queue pair that is sending (started and not yet completed). It only reads the message
// table: one scheduler event per interval, and none once every message has completed, so a run
// without a stop time still ends with its traffic. Samples are a pure function of the scenario and
// seed, like every other output.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "congestion/dcqcn.h"
#include "core/scheduler.h"
#include "core/units.h"
#include "dataplane/message.h"
#include "dataplane/nic.h"

namespace fe::control {

struct RateSample {
  Time at;
  uint32_t flow;  // message id, as in flows.csv
  Rate rate;
};

// Where a sampler finds the rates that are not in the message table. The NIC advances a
// waiting QP's DCQCN state lazily, so with `dcqcn` given the sampler replays the increases due by
// the sample time on a copy, as the NIC would when it next looks; HPCC keeps its rates in the
// fabric's table.
struct RateSources {
  const cong::DcqcnConfig* dcqcn = nullptr;
  const dp::HpccTable* hpcc = nullptr;
};

class RateSampler final : public EventHandler {
 public:
  // A QP's rate under `cc`: kDcqcn, its DCQCN current rate R_C; kHpcc, its HPCC rate W / T
  // (from sources.hpcc); kNone, line_rate(message id), the rate of the link its sender leaves
  // by (nothing throttles it). messages and the sources must outlive the sampler.
  RateSampler(Scheduler* sched, const dp::MessageTable* messages, dp::CongestionControl cc,
              std::function<Rate(uint32_t)> line_rate, Time interval, RateSources sources = {});
  // The same where every message's line rate is one rate.
  RateSampler(Scheduler* sched, const dp::MessageTable* messages, dp::CongestionControl cc,
              Rate line_rate, Time interval, RateSources sources = {})
      : RateSampler(
            sched, messages, cc, [line_rate](uint32_t) { return line_rate; }, interval, sources) {}

  // Schedules the first sample one interval from now.
  void Start();
  void OnEvent(uint64_t arg) override;

  const std::vector<RateSample>& samples() const { return samples_; }
  // Message id's rate at `now`, as a sample would give it; the message must have started. A
  // sampler never started answers this too, for a live view of the rates.
  Rate RateOf(uint32_t id, Time now) const;

 private:
  Scheduler* sched_;
  const dp::MessageTable* messages_;
  dp::CongestionControl cc_;
  std::function<Rate(uint32_t)> line_rate_;
  Time interval_;
  RateSources sources_;
  std::vector<RateSample> samples_;
};

// rates.csv: a header, then one `time_ns,flow,rate_bps` row per sample in time order, flows
// ascending within a time.
std::string RatesCsv(std::span<const RateSample> samples);

}  // namespace fe::control
