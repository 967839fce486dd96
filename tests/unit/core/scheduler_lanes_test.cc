// Scheduler::EnableCores: a windowed model run on 2 and 3 lanes must execute exactly as on one:
// every domain the same events in the same order, the Serial calls and domain 0's events (its
// own and those the domains push to it) in the same order. Event times sit on a coarse grid, so
// events of one domain often share a time and their order comes down to the order they were pushed
// in, across domains: the part that lanes running at once could change.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

#include "core/scheduler.h"

namespace fe {
namespace {

constexpr uint32_t kDomains = 8;
constexpr uint64_t kEventsPerNode = 400;
constexpr Time kLookahead = Time::FromNs(64);
constexpr int64_t kGridPs = 16000;  // 16 ns: four grid points per lookahead
constexpr Time kSamplePeriod = Time::FromNs(300);

using Trace = std::vector<std::pair<int64_t, uint64_t>>;  // (time ps, arg) in execution order

uint64_t Lcg(uint64_t x) { return x * 6364136223846793005ULL + 1442695040888963407ULL; }
Time OnGrid(Time t, uint64_t steps) {
  return Time::FromPs((t.ps() / kGridPs + static_cast<int64_t>(steps)) * kGridPs);
}

struct Model;
struct Node : EventHandler {
  Model* model = nullptr;
  uint64_t seen = 0;
  Trace trace;  // written only by the lane running this domain
  void OnEvent(uint64_t arg) override;
};
// A notice shared by every domain: its log is one, so it must run as a Serial call.
struct Notices : EventHandler {
  Model* model = nullptr;
  Trace log;
  void OnEvent(uint64_t arg) override;
};
// Domain 0: what nodes tell it arrives between windows, in one core's order.
struct Probe : EventHandler {
  Model* model = nullptr;
  Trace log;
  void OnEvent(uint64_t arg) override;
};
// Domain 0: sees the whole model at one instant between windows.
struct Sampler : EventHandler {
  Model* model = nullptr;
  std::vector<std::tuple<int64_t, uint64_t>> log;  // (time ps, events seen by all nodes)
  void OnEvent(uint64_t arg) override;
};

struct Model {
  // lanes == 0: windows on one core, the reference; else EnableCores(lanes) with domain d on
  // lane (d * 5) % lanes, so that neighbours in number do not share a lane, or with every
  // domain on lane 0 (the other lanes then run only what they take from it).
  explicit Model(uint32_t lanes, bool all_on_lane_0 = false) {
    notices.model = this;
    probe.model = this;
    sampler.model = this;
    for (uint32_t i = 0; i < kDomains; ++i) {
      nodes[i].model = this;
      nodes[i].set_event_domain(i + 1);
      for (uint64_t j = 0; j < 3; ++j) {
        sched.At(OnGrid(Time::FromNs(static_cast<int64_t>(5 * i + 30 * j)), 1), &nodes[i],
                 Lcg(3 * i + j + 1) | 1);
      }
    }
    sched.At(kSamplePeriod, &sampler);
    sched.EnableWindows(kLookahead, kDomains + 1);
    if (lanes > 0) {
      std::vector<uint32_t> lane_of_domain(kDomains + 1, 0);
      for (uint32_t d = 1; d <= kDomains; ++d) {
        lane_of_domain[d] = all_on_lane_0 ? 0 : (d * 5) % lanes;
      }
      sched.EnableCores(lanes, std::move(lane_of_domain));
    }
  }
  uint64_t NodeEventsSeen() const {
    uint64_t n = 0;
    for (const Node& node : nodes) n += node.seen;
    return n;
  }
  Scheduler sched;
  std::array<Node, kDomains> nodes;  // nodes[i] is domain i + 1
  Notices notices;
  Probe probe;
  Sampler sampler;
};

void Node::OnEvent(uint64_t arg) {
  Scheduler& s = model->sched;
  trace.emplace_back(s.Now().ps(), arg);
  if (++seen > kEventsPerNode) return;
  const uint64_t x = Lcg(arg);
  // An odd arg is a message: it moves on to a domain at least a lookahead away, so the messages
  // in flight stay as many as the seeds.
  if ((arg & 1) != 0) {
    const uint32_t to = static_cast<uint32_t>((x >> 33) % kDomains);
    s.AtIn(to + 1, OnGrid(s.Now(), 4 + ((x >> 40) % 3)), &model->nodes[to], x | 1);
  }
  // Events of its own inside the window, on the grid: ties with arrivals are common.
  if (((x >> 20) & 3) != 0) s.At(OnGrid(s.Now(), (x >> 24) % 4), this, x & ~uint64_t{1});
  if (((x >> 28) & 7) == 0) s.Serial(&model->notices, x);
  if (((x >> 44) & 7) == 0) s.AtIn(0, OnGrid(s.Now(), 4), &model->probe, x);
}

void Probe::OnEvent(uint64_t arg) { log.emplace_back(model->sched.Now().ps(), arg); }

void Notices::OnEvent(uint64_t arg) {
  Scheduler& s = model->sched;
  log.emplace_back(s.Now().ps(), arg);
  // What a Serial call schedules lands at or after the window's end, in one core's order.
  const uint32_t to = static_cast<uint32_t>((arg >> 35) % kDomains);
  s.AtIn(to + 1, OnGrid(s.Now(), 4), &model->nodes[to], Lcg(arg) & ~uint64_t{1});
}

void Sampler::OnEvent(uint64_t /*arg*/) {
  Scheduler& s = model->sched;
  log.emplace_back(s.Now().ps(), model->NodeEventsSeen());
  if (model->NodeEventsSeen() < kDomains * kEventsPerNode) s.After(kSamplePeriod, this);
}

// Same-time events of one domain: where only their push order decides which runs first.
uint64_t Ties(const Model& m) {
  uint64_t ties = 0;
  for (const Node& node : m.nodes) {
    for (size_t i = 1; i < node.trace.size(); ++i) {
      ties += node.trace[i].first == node.trace[i - 1].first ? 1 : 0;
    }
  }
  return ties;
}

// Every domain ran the same events in the same order, and so did the Serial calls and domain 0.
void ExpectSameRun(const Model& m, const Model& one) {
  for (uint32_t d = 0; d < kDomains; ++d) {
    EXPECT_EQ(m.nodes[d].trace, one.nodes[d].trace) << "domain " << d + 1;
  }
  EXPECT_EQ(m.notices.log, one.notices.log);
  EXPECT_EQ(m.probe.log, one.probe.log);
  EXPECT_EQ(m.sampler.log, one.sampler.log);
}

TEST(SchedulerLanesTest, ExecutesAsOneCoreOnTwoAndThreeLanes) {
  Model one(0);
  const uint64_t ran = one.sched.RunUntil(Time::Infinite());
  // Each node stops scheduling at its kEventsPerNode-th event but still runs what was queued.
  ASSERT_GE(one.NodeEventsSeen(), kDomains * kEventsPerNode);
  ASSERT_GT(one.notices.log.size(), 50u);
  ASSERT_GT(one.probe.log.size(), 50u);
  // The ordering under test must be exercised: many ties inside domains.
  ASSERT_GT(Ties(one), 200u);
  for (const uint32_t lanes : {1u, 2u, 3u}) {
    SCOPED_TRACE(lanes);
    Model m(lanes);
    EXPECT_EQ(m.sched.RunUntil(Time::Infinite()), ran);
    EXPECT_EQ(m.sched.events_run(), one.sched.events_run());
    EXPECT_EQ(m.sched.Now(), one.sched.Now());
    ExpectSameRun(m, one);
  }
}

// A lane that finishes its own domains runs those another lane has not begun: which lane runs a
// domain, and in which order the lanes finish, must not show in the results.
TEST(SchedulerLanesTest, DomainsTakenFromAnotherLaneRunAsOnOneCore) {
  Model one(0);
  one.sched.RunUntil(Time::Infinite());
  for (const uint32_t lanes : {2u, 3u}) {
    SCOPED_TRACE(lanes);
    Model m(lanes, /*all_on_lane_0=*/true);
    m.sched.RunUntil(Time::Infinite());
    ExpectSameRun(m, one);
  }
}

// A run cut into slices (RunUntil with an event budget, as fabric-emu run does to report
// progress) ends its windows where an uncut run does, on lanes as on one core.
TEST(SchedulerLanesTest, SlicedRunMatchesWhole) {
  Model whole(2);
  whole.sched.RunUntil(Time::Infinite());
  Model sliced(2);
  while (!sliced.sched.empty()) sliced.sched.RunUntil(Time::Infinite(), 97);
  for (uint32_t d = 0; d < kDomains; ++d) EXPECT_EQ(sliced.nodes[d].trace, whole.nodes[d].trace);
  EXPECT_EQ(sliced.notices.log, whole.notices.log);
  EXPECT_EQ(sliced.probe.log, whole.probe.log);
}

// The tie rule itself (docs/multicore.md, "The determinism rule"): of events pushed in one window
// for one domain at one instant, the lower-numbered pushing domain's run first, each domain's in
// the order it pushed them, whatever the time order of the pushes, on one core and on lanes.
struct Pusher : EventHandler {
  Scheduler* sched = nullptr;
  EventHandler* to = nullptr;
  std::vector<uint64_t> args;
  void OnEvent(uint64_t /*arg*/) override {
    for (const uint64_t a : args) sched->AtIn(4, Time::FromNs(200), to, a);
  }
};
struct Sink : EventHandler {
  std::vector<uint64_t> got;
  void OnEvent(uint64_t arg) override { got.push_back(arg); }
};

std::vector<uint64_t> TiedArrivals(uint32_t lanes) {
  Scheduler sched;
  std::array<Pusher, 3> pushers;  // domains 1 to 3
  Sink sink;
  sink.set_event_domain(4);
  for (uint32_t i = 0; i < 3; ++i) {
    pushers[i].sched = &sched;
    pushers[i].to = &sink;
    pushers[i].set_event_domain(i + 1);
    pushers[i].args = {10 * (i + 1), 10 * (i + 1) + 1};
    // Domain 3 pushes first in time, domain 1 last: all within one window.
    sched.At(Time::FromNs(30 - 10 * static_cast<int64_t>(i)), &pushers[i]);
  }
  sched.EnableWindows(kLookahead, 5);
  if (lanes > 0) sched.EnableCores(lanes, {0, 0, 1 % lanes, 2 % lanes, 1 % lanes});
  sched.RunUntil(Time::Infinite());
  return sink.got;
}

TEST(SchedulerLanesTest, TiesBreakByThePushingDomainsNumber) {
  const std::vector<uint64_t> expected = {10, 11, 20, 21, 30, 31};
  EXPECT_EQ(TiedArrivals(0), expected);
  EXPECT_EQ(TiedArrivals(2), expected);
  EXPECT_EQ(TiedArrivals(3), expected);
}

}  // namespace
}  // namespace fe
