// Windowed mode (Scheduler::EnableWindows). The reference is the single-order run: as long as no
// two events of one domain share a time, windows may only change the order ACROSS domains, so
// every domain must see exactly the sequence it sees without windows.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <functional>
#include <memory>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "core/scheduler.h"

namespace fe {
namespace {

using Record = std::tuple<uint32_t, int64_t, uint64_t>;   // (domain, time ps, arg)
using Trace = std::vector<std::pair<int64_t, uint64_t>>;  // one domain's (time ps, arg)

constexpr uint32_t kDomains = 6;
constexpr uint64_t kEventsPerNode = 300;
constexpr Time kLookahead = Time::FromNs(50);
// Every event time is a multiple of kGrain plus a code unique to the event (who made it, at
// its how-many-th event, and which kind), so no two events anywhere ever share a time.
constexpr int64_t kGrain = 8192;
constexpr int64_t Code(uint32_t creator, uint64_t k, uint64_t kind) {
  return static_cast<int64_t>((creator * (kEventsPerNode + 1) + k) * 2 + kind);
}
static_assert(Code(kDomains, kEventsPerNode, 1) < kGrain);
// The first time after `earliest` carrying `code`: in (earliest, earliest + 2 * kGrain).
Time Slot(Time earliest, int64_t code) {
  return Time::FromPs((earliest.ps() / kGrain + 1) * kGrain + code);
}
uint64_t Lcg(uint64_t x) { return x * 6364136223846793005ULL + 1442695040888963407ULL; }

struct Model;
struct Node : EventHandler {
  Model* model = nullptr;
  uint64_t seen = 0;
  void OnEvent(uint64_t arg) override;
};

// Six domains passing messages one lookahead (plus jitter) apart, each message also starting
// a chain of its receiver's own events inside the lookahead.
struct Model {
  explicit Model(bool windowed) {
    for (uint32_t i = 0; i < kDomains; ++i) {
      nodes[i].model = this;
      nodes[i].set_event_domain(i + 1);
      // Seeded before EnableWindows, so the move of pending events is covered too.
      for (uint64_t j = 0; j < 2; ++j) {
        sched.At(Slot(Time::FromNs(static_cast<int64_t>(7 * i + 20 * j)), Code(0, 2 * i + j, 0)),
                 &nodes[i], Lcg(2 * i + j + 1) | 1);
      }
    }
    if (windowed) sched.EnableWindows(kLookahead, kDomains + 1);
  }
  uint64_t DomainEventsRun() const {
    uint64_t n = 0;
    for (const Node& node : nodes) n += node.seen;
    return n;
  }
  Scheduler sched;
  std::array<Node, kDomains> nodes;  // nodes[i] is domain i + 1
  std::vector<Record> log;           // in execution order
};

void Node::OnEvent(uint64_t arg) {
  Scheduler& s = model->sched;
  const Time now = s.Now();
  const uint32_t domain = event_domain();
  model->log.emplace_back(domain, now.ps(), arg);
  if (++seen > kEventsPerNode) return;
  const uint64_t x = Lcg(arg);
  const uint64_t y = Lcg(x);
  // An odd arg is a message: it moves on, so the messages in flight stay as many as the seeds
  // (were every event to spawn two, the run would be over in a handful of windows).
  const bool message = (arg & 1) != 0;
  if (message) {
    const uint32_t dest = (domain + static_cast<uint32_t>((x >> 33) % (kDomains - 1))) % kDomains;
    const int64_t jitter = static_cast<int64_t>((y >> 20) % 5001);
    s.AtIn(dest + 1, Slot(now + kLookahead + Time::FromPs(jitter), Code(domain, seen, 0)),
           &model->nodes[dest], x | 1);
  }
  // Own events: after each message, and in short chains, below the lookahead so they often
  // land in the running window.
  if (message || (y >> 62) == 0) {
    const int64_t delay = static_cast<int64_t>((y >> 40) % (kLookahead.ps() - 2 * kGrain));
    s.At(Slot(now + Time::FromPs(delay), Code(domain, seen, 1)), this, y & ~uint64_t{1});
  }
}

std::vector<Record> RunModel(bool windowed) {
  Model m(windowed);
  m.sched.RunUntil(Time::Infinite());
  return m.log;
}

std::vector<Trace> PerDomain(const std::vector<Record>& log) {
  std::vector<Trace> out(kDomains + 1);
  for (const auto& [domain, ps, arg] : log) out[domain].emplace_back(ps, arg);
  return out;
}

TEST(SchedulerWindowTest, EveryDomainSeesTheSameSequenceAsTheSingleOrderRun) {
  const std::vector<Record> want = RunModel(false);
  const std::vector<Record> got = RunModel(true);
  // The model must be big enough to span many windows for the comparison to mean anything.
  ASSERT_GT(want.size(), 1000u);
  EXPECT_EQ(got.size(), want.size());
  const std::vector<Trace> want_d = PerDomain(want);
  const std::vector<Trace> got_d = PerDomain(got);
  for (uint32_t d = 1; d <= kDomains; ++d) {
    EXPECT_EQ(got_d[d], want_d[d]) << "domain " << d;
    for (size_t i = 1; i < got_d[d].size(); ++i) {
      ASSERT_LT(got_d[d][i - 1].first, got_d[d][i].first) << "domain " << d << " event " << i;
    }
  }
}

TEST(SchedulerWindowTest, SlicingByStartByKeepsTheWholeOrderAndRanUntilSplitsIt) {
  // A bound cuts windows and so reorders domains against one another (legal, above); start_by,
  // the pacing bound, must not: the run sliced by it keeps the single run's order event for
  // event, and ran_until separates what ran from what has not.
  const std::vector<Record> want = [] {
    Model m(true);
    m.sched.RunUntil(Time::Infinite());
    return m.log;
  }();
  Model m(true);
  const Time step = Time::FromNs(7);  // prime to the lookahead: slices end anywhere in a window
  size_t slices = 0;
  while (!m.sched.empty()) {
    const size_t before = m.log.size();
    const Time from = m.sched.ran_until();
    m.sched.RunUntil(Time::Infinite(), UINT64_MAX, from + step);
    ++slices;
    for (size_t i = before; i < m.log.size(); ++i) {
      ASSERT_GE(std::get<1>(m.log[i]), from.ps()) << "event " << i;
      ASSERT_LT(std::get<1>(m.log[i]), m.sched.ran_until().ps()) << "event " << i;
    }
  }
  EXPECT_GT(slices, 50u);  // many slices, or the comparison means little
  EXPECT_EQ(m.log, want);
}

struct Probe : EventHandler {
  Model* model = nullptr;
  std::vector<std::pair<int64_t, uint64_t>> readings;  // (now ps, domain events run)
  void OnEvent(uint64_t) override {
    readings.emplace_back(model->sched.Now().ps(), model->DomainEventsRun());
  }
};

TEST(SchedulerWindowTest, DomainZeroSeesEveryEarlierDomainEventAndNoLaterOne) {
  // Probe at domain events' own times (ties: domain 0 goes first) and 1 ps either side.
  const std::vector<Record> want = RunModel(false);
  std::set<int64_t> probe_ps = {0, Time::FromMs(1).ps()};
  for (size_t i = 0; i < want.size(); i += 37) {
    const int64_t t = std::get<1>(want[i]);
    probe_ps.insert({t - 1, t, t + 1});
  }
  Model m(true);
  Probe probe;
  probe.model = &m;
  for (int64_t t : probe_ps) m.sched.At(Time::FromPs(t), &probe);
  m.sched.RunUntil(Time::Infinite());

  ASSERT_EQ(probe.readings.size(), probe_ps.size());
  std::vector<int64_t> domain_ps;
  for (const auto& [domain, ps, arg] : m.log) domain_ps.push_back(ps);
  std::sort(domain_ps.begin(), domain_ps.end());
  auto want_t = probe_ps.begin();
  for (const auto& [now_ps, count] : probe.readings) {
    EXPECT_EQ(now_ps, *want_t++);
    const auto before = std::lower_bound(domain_ps.begin(), domain_ps.end(), now_ps);
    EXPECT_EQ(count, static_cast<uint64_t>(before - domain_ps.begin())) << "probe at " << now_ps;
  }
  // The probes cut windows short; the domains' own histories must not notice.
  EXPECT_EQ(PerDomain(m.log), PerDomain(want));
}

struct Logger : EventHandler {
  Scheduler* sched = nullptr;
  std::vector<Record>* log = nullptr;
  std::function<void(uint64_t)> hook;
  void OnEvent(uint64_t arg) override {
    log->emplace_back(event_domain(), sched->Now().ps(), arg);
    if (hook) hook(arg);
  }
};

std::multiset<uint64_t> ArgsOf(const std::vector<Record>& log, size_t from) {
  std::multiset<uint64_t> out;
  for (size_t i = from; i < log.size(); ++i) out.insert(std::get<2>(log[i]));
  return out;
}

TEST(SchedulerWindowTest, RunUntilRunsEverythingUpToAndIncludingTheBoundOnly) {
  Scheduler s;
  std::vector<Record> log;
  std::array<Logger, 4> h;  // h[d] is in domain d
  for (uint32_t d = 0; d < 4; ++d) {
    h[d].sched = &s;
    h[d].log = &log;
    h[d].set_event_domain(d);
  }
  const Time until1 = Time::FromNs(20);
  const Time until2 = Time::FromNs(25);
  // Made inside the window that until1 cuts: one lands on the bound, one 1 ps past it.
  h[1].hook = [&](uint64_t arg) {
    if (arg != 1) return;
    s.At(until1, &h[1], 2);
    s.At(until1 + Time::FromPs(1), &h[1], 3);
  };
  s.At(Time::FromNs(10), &h[1], 1);
  s.At(Time::FromNs(15), &h[2], 4);
  s.At(until1, &h[2], 11);
  // Domain 3 runs last in the window, yet its event is not the latest: Now() must still be.
  s.At(until1 - Time::FromPs(1), &h[3], 8);
  s.At(until2, &h[2], 10);
  s.At(until2, &h[0], 7);  // domain 0 on the second bound, scheduled after domain 2's tie
  s.At(Time::FromNs(30), &h[2], 5);
  s.At(Time::FromNs(100), &h[3], 9);
  // Only now, so the events above (domain 0's too) must move to where windowed mode keeps them.
  s.EnableWindows(kLookahead, 4);

  EXPECT_EQ(s.RunUntil(until1), 5u);
  EXPECT_EQ(ArgsOf(log, 0), (std::multiset<uint64_t>{1, 2, 4, 8, 11}));
  EXPECT_EQ(s.Now(), until1);

  const size_t mark = log.size();
  EXPECT_EQ(s.RunUntil(until2), 3u);
  EXPECT_EQ(ArgsOf(log, mark), (std::multiset<uint64_t>{3, 7, 10}));
  EXPECT_EQ(s.Now(), until2);
  // Domain 0 first at equal times, whatever the insertion order.
  ASSERT_EQ(log.size(), mark + 3);
  EXPECT_EQ(std::get<2>(log[mark + 1]), 7u);
  EXPECT_EQ(std::get<2>(log[mark + 2]), 10u);

  EXPECT_EQ(s.RunUntil(Time::Infinite()), 2u);
  EXPECT_EQ(ArgsOf(log, 0), (std::multiset<uint64_t>{1, 2, 3, 4, 5, 7, 8, 9, 10, 11}));
  EXPECT_TRUE(s.empty());
}

// Domain 1's event sends to domain 2 `ahead` later; returns when that ran (ps), or -1.
int64_t SendAcross(Time ahead) {
  Scheduler s;
  s.EnableWindows(kLookahead, 3);
  std::vector<Record> log;
  Logger a, b;
  a.sched = b.sched = &s;
  a.log = b.log = &log;
  a.set_event_domain(1);
  b.set_event_domain(2);
  a.hook = [&](uint64_t) { s.AtIn(2, s.Now() + ahead, &b, 1); };
  s.At(Time::FromNs(10), &a);
  s.RunUntil(Time::Infinite());
  return log.size() == 2 ? std::get<1>(log[1]) : -1;
}

TEST(SchedulerWindowDeathTest, CrossDomainEventInsideTheLookaheadAborts) {
  // Exactly the lookahead is allowed: the abort must come from the distance, not the crossing.
  EXPECT_EQ(SendAcross(kLookahead), (Time::FromNs(10) + kLookahead).ps());
  EXPECT_DEATH(SendAcross(kLookahead - Time::FromPs(1)), "lookahead");
}

TEST(SchedulerWindowTest, WindowedRunIsDeterministic) {
  // Both alive at once, so the second's handlers sit at other addresses: an order that hung
  // on pointers would show.
  auto first = std::make_unique<Model>(true);
  auto second = std::make_unique<Model>(true);
  first->sched.RunUntil(Time::Infinite());
  second->sched.RunUntil(Time::Infinite());
  ASSERT_GT(first->log.size(), 1000u);
  EXPECT_EQ(first->log, second->log);
}

TEST(SchedulerWindowTest, MaxEventsSlicesAtLeastKAndTheSlicesAddUpToTheWholeRun) {
  const std::vector<Record> want = RunModel(false);
  for (uint64_t k : {1u, 7u, 250u}) {
    Model m(true);
    uint64_t sum = 0;
    size_t calls = 0;
    while (!m.sched.empty()) {
      const size_t pending = m.sched.pending();
      const uint64_t ran = m.sched.RunUntil(Time::Infinite(), k);
      if (pending >= k) {
        ASSERT_GE(ran, k) << "k " << k << " call " << calls;
      }
      ASSERT_GT(ran, 0u);
      sum += ran;
      ASSERT_LT(++calls, 100000u);
    }
    EXPECT_GT(calls, 1u) << "k " << k << ": max_events ignored";
    EXPECT_EQ(sum, want.size()) << "k " << k;
    EXPECT_EQ(m.sched.events_run(), want.size()) << "k " << k;
    EXPECT_EQ(PerDomain(m.log), PerDomain(want)) << "k " << k;
  }
}

}  // namespace
}  // namespace fe
