#include "control/report/rate_sampler.h"

#include <cinttypes>
#include <cstdio>
#include <utility>

namespace fe::control {

RateSampler::RateSampler(Scheduler* sched, const dp::MessageTable* messages,
                         dp::CongestionControl cc, std::function<Rate(uint32_t)> line_rate,
                         Time interval, RateSources sources)
    : sched_(sched),
      messages_(messages),
      cc_(cc),
      line_rate_(std::move(line_rate)),
      interval_(interval),
      sources_(sources) {}

void RateSampler::Start() { sched_->After(interval_, this); }

void RateSampler::OnEvent(uint64_t /*arg*/) {
  const Time now = sched_->Now();
  bool pending = false;
  for (uint32_t id = 0; id < messages_->size(); ++id) {
    if (messages_->finished(id)) continue;
    pending = true;
    const dp::SenderState& m = messages_->sender[id];
    // A message starting at this very instant may not have run its start event yet: its rate
    // state is only defined once it has, so it is sampled from the next interval on.
    if (!m.started() || m.started_at >= now) continue;
    samples_.push_back(RateSample{now, id, RateOf(id, now)});
  }
  if (pending) sched_->After(interval_, this);
}

Rate RateSampler::RateOf(uint32_t id, Time now) const {
  if (cc_ == dp::CongestionControl::kDcqcn) {
    cong::DcqcnState state = messages_->sender[id].dcqcn;
    if (sources_.dcqcn != nullptr) cong::OnTimer(*sources_.dcqcn, state, now);
    return state.current_rate;
  }
  if (cc_ == dp::CongestionControl::kHpcc && sources_.hpcc != nullptr) {
    return (*sources_.hpcc)[id].state.rate;
  }
  return line_rate_ ? line_rate_(id) : Rate();
}

std::string RatesCsv(std::span<const RateSample> samples) {
  std::string out = "time_ns,flow,rate_bps\n";
  char line[96];
  for (const RateSample& s : samples) {
    std::snprintf(line, sizeof(line), "%.3f,%" PRIu32 ",%" PRId64 "\n", s.at.fractional_ns(),
                  s.flow, s.rate.bps());
    out += line;
  }
  return out;
}

}  // namespace fe::control
